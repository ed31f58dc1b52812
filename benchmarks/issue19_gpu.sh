#!/usr/bin/env bash
# Issue 19 on a GPU, in one go: the decode and prefill tables against FlashInfer 0.7.2 (CUDA events, L2 flushed, one
# process), the 4096-wide silu_and_mul rows, GELU and GELU-tanh, 65536 and 100000 rows, kernel-only times at decode
# (CUPTI), shapes drawn at random (SEED), and the SiLU-arithmetic explorer.
# Needs FLASHINFER_WHEEL_DIR (see bench_vs_flashinfer.py). Writes OUT/<gpu>_*.txt; about 10 minutes on an H100.
#   FLASHINFER_WHEEL_DIR=/tmp/fi/whl OUT=out bash benchmarks/issue19_gpu.sh
set -u
: "${FLASHINFER_WHEEL_DIR:?set FLASHINFER_WHEEL_DIR to an extracted flashinfer-python 0.7.2.post1 wheel}"
OUT=${OUT:-out_issue19}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '_')
step() {  # name, timeout (s), command...: run one step, its log beside its output, and say how it went
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout "$limit" "$@" > "$OUT/${gpu}_$name.log" 2>&1
  echo "$name: exit $? in $(( $(date +%s) - t0 )) s"
}
step decode 400 $PY "$here/bench_vs_flashinfer.py" --rows 1 8 32 128 256 --no-host --out "$OUT/${gpu}_decode.txt"
step decode_4096 150 $PY "$here/bench_vs_flashinfer.py" --rows 1 8 32 128 256 --hiddens 4096 --inter 4096 --no-host \
  --out "$OUT/${gpu}_decode_4096.txt"
step prefill 400 $PY "$here/bench_vs_flashinfer.py" --rows 2048 8192 16384 --hiddens 1536 4096 8192 16384 4100 \
  --inter 4096 14336 --no-host --out "$OUT/${gpu}_prefill.txt"
step gelu 200 $PY "$here/bench_vs_flashinfer.py" --no-norm --acts gelu gelu_tanh --rows 1 8 32 128 256 2048 8192 \
  --inter 4096 14336 14340 --no-host --out "$OUT/${gpu}_gelu.txt"
# past one grid dimension of rows (65535): session 29 found the activation's grid scheduling empty blocks there
step rows65536 150 $PY "$here/bench_vs_flashinfer.py" --rows 65536 100000 --hiddens 4096 --inter 4096 14336 14340 \
  --dtypes bfloat16 --n 20 --no-host --out "$OUT/${gpu}_rows65536.txt"
# shapes no list names (session 38: short rows 0.83x FlashInfer were found that way): drawn across every width class
# and row range, reproducibly by SEED; the cases under 1.05x re-timed three times
step draw 400 $PY "$here/bench_vs_flashinfer.py" --draw 24 --seed "${SEED:-39}" --acts silu gelu --no-host --stat trimmed \
  --n 30 --recheck 3 --out "$OUT/${gpu}_draw_seed${SEED:-39}.txt"
step kernel_times 300 $PY "$here/explore/decode_kernel_times.py" --out "$OUT/${gpu}_decode_kernel_times.txt"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
if nvcc -O3 -std=c++17 -arch=sm_${arch} -I "$here/../include" -o "$OUT/silu_math" "$here/explore/silu_decode_math.cu" 2> "$OUT/silu_math_build.log"; then
  step silu_math 200 "$OUT/silu_math"
  mv "$OUT/${gpu}_silu_math.log" "$OUT/${gpu}_silu_math.txt"
else
  echo "silu_math: the explorer did not build (see $OUT/silu_math_build.log)"
fi
