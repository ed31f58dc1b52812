#!/usr/bin/env bash
# Both launch-rule sweeps under compute-sanitizer memcheck, one process per op family and dtype (they run side by
# side: the sanitizer's cost is on the host), each over width ranges in turn; one log per range under $1.
# Usage: [FAMILIES="norm gated"] benchmarks/explore/launch_sweep_memcheck.sh OUTDIR [seconds per range]
set -uo pipefail
out=${1:?OUTDIR}; limit=${2:-540}; mkdir -p "$out"
here=$(dirname "$0")
export PYTORCH_NO_CUDA_MEMORY_CACHING=1
for op in ${FAMILIES:-norm gated}; do
  for dt in float16 bfloat16 float32; do
    (for range in 1:300 300:1500 1500:3000 3000:6000 6000:9000; do
       lo=${range%:*}; hi=${range#*:}
       [ "$op" = gated ] && [ "$lo" -ge 6000 ] && continue
       log="$out/memcheck_${op}_${dt}_${lo}-${hi}.log"
       timeout "$limit" compute-sanitizer --tool memcheck --print-limit 20 \
         python3 "$here/launch_sweep_memcheck.py" "$op" --lo "$lo" --hi "$hi" --dtypes "$dt" > "$log" 2>&1
       echo "rc=$?" >> "$log"
     done) &
  done
done
wait
for f in "$out"/memcheck_*.log; do echo "== $(basename "$f") $(tail -1 "$f")"; grep "^# " "$f"; python3 "$here/launch_sweep_memcheck.py" --parse "$f"; done
