#!/usr/bin/env bash
# The GPU suite, in named parts that each finish well inside one 10-minute command on an H100/H200 (packages
# already importable). Logs and results go to $OUT (or /tmp/flashinfer_nb_gpu).
#   .ci/gpu.sh                 every part, in order
#   .ci/gpu.sh PART [PART...]  only those (make test-gpu PART=pytest-ops)
# Parts: env, pytest-ops, pytest-tools, nbs-core, nbs-ops, nbs-tools, nbval-core, nbval-ops, nbval-tools, sanitize, bench
# and, only when named (it rewrites notebooks): record (= record-core record-ops record-tools) executes the notebooks and
# writes their GPU cells' outputs back into nbs/ (python -m flashinfer_nb.docs record-gpu), copies in $OUT/recorded/
# (and $OUT/recorded.tgz);
# commit them, then `python -m flashinfer_nb.docs check-gpu-outputs` (any machine) lists the GPU cells still without one.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/flashinfer_nb_gpu}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
PY=${PYTHON:-python3}
ALL=(env pytest-ops pytest-tools nbs-core nbs-ops nbs-tools nbval-core nbval-ops nbval-tools sanitize bench)
OPS_TESTS="tests/test_norm.py tests/test_activation.py tests/test_scale.py tests/test_op_cases.py tests/test_trace.py
  tests/test_api_logging.py tests/test_testing.py tests/test_bench.py tests/test_benchstats.py"
# notebooks by layer: the JIT and harness (0x), the ops and their inspection (1x), the magics, tutorials and the rest
NB_CORE='0'; NB_OPS='1'; NB_TOOLS='2|9|index'
nbs_in() { ls nbs/*.ipynb | grep -E "nbs/($1)" ; }
rc=0
step() { local name=$1; shift; echo "=== $name"; local t0=$SECONDS
  "$@" 2>&1 | tee -a "$OUT/gpu_$name.log"; local s=${PIPESTATUS[0]}
  echo "=== $name: exit $s in $((SECONDS - t0)) s" | tee -a "$OUT/gpu_times.txt"; [ $s -eq 0 ] || rc=1; }
part() {
  case $1 in
    env) step env bash -c "nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv &&
           $PY -c \"import torch, tvm_ffi; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'tvm_ffi', tvm_ffi.__version__)\" &&
           $PY benchmarks/bench_jit_startup.py" ;;
    pytest-ops) step pytest-ops $PY -m pytest -q -p no:cacheprovider $OPS_TESTS ;;
    pytest-tools) step pytest-tools $PY -m pytest -q -p no:cacheprovider tests $(for t in $OPS_TESTS; do echo --ignore=$t; done) ;;
    # serial: timing checks (04_testing) need the GPU to themselves
    nbs-core) step nbs-core nbdev-test --flags cuda --n-workers 1 --file-re "^($NB_CORE)" ;;
    nbs-ops) step nbs-ops nbdev-test --flags cuda --n-workers 1 --file-re "^($NB_OPS)" ;;
    nbs-tools) step nbs-tools nbdev-test --flags cuda --n-workers 1 --file-re "^($NB_TOOLS)" ;;
    nbval-core) step nbval-core $PY -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env $(nbs_in "$NB_CORE") ;;
    nbval-ops) step nbval-ops $PY -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env $(nbs_in "$NB_OPS") ;;
    nbval-tools) step nbval-tools $PY -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env $(nbs_in "$NB_TOOLS") ;;
    sanitize) step sanitize bash .ci/sanitize.sh ;;
    record) part record-core; part record-ops; part record-tools ;;
    record-core|record-ops|record-tools)
      local layer; case $1 in record-core) layer=$NB_CORE ;; record-ops) layer=$NB_OPS ;; *) layer=$NB_TOOLS ;; esac
      local nbs; nbs=$($PY -c "import sys; from flashinfer_nb.docs import gpu_cells; print(' '.join(p for p in sys.argv[1:] if gpu_cells(p)))" $(nbs_in "$layer"))
      if [ -n "$nbs" ]; then step "$1" $PY -m flashinfer_nb.docs record-gpu --copy-to "$OUT/recorded" $nbs; else echo "=== $1: no GPU cells"; fi
      # one archive: a remote runner may bring back only a few files (the device tool: 8)
      tar czf "$OUT/recorded.tgz" -C "$OUT" recorded ;;
    bench) step bench bash -c "$PY benchmarks/bench_scale.py --csv $OUT/scale.csv &&
             $PY benchmarks/flashinfer_nb_benchmark.py --routine all --refcheck --output-path $OUT/bench_all.csv --plot $OUT/bench_all.png" ;;
    *) echo "unknown part '$1'; parts: ${ALL[*]}" >&2; exit 2 ;;
  esac
}
for p in "${@:-${ALL[@]}}"; do part "$p"; done
exit $rc
