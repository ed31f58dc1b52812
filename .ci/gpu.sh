#!/usr/bin/env bash
# The GPU suite in one call (used on the lent GPU machine; packages already on PYTHONPATH):
# toolchain facts, start-up costs, every pytest test, every notebook with its cuda cells, benchmarks.
# Logs and results go to $OUT (or /tmp/flashinfer_nb_gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/flashinfer_nb_gpu}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
rc=0
step() { echo "=== $1"; shift; "$@" 2>&1 | tee -a "$OUT/gpu_suite.log"; local s=${PIPESTATUS[0]}; [ $s -eq 0 ] || { echo "FAILED ($s): $*"; rc=1; }; }
step gpu nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
step versions python3 -c "import torch, tvm_ffi; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'tvm_ffi', tvm_ffi.__version__)"
step startup python3 benchmarks/bench_jit_startup.py
step pytest python3 -m pytest -q -p no:cacheprovider
step notebooks nbdev-test --flags cuda --n_workers 1   # serial: timing checks (04_testing) need the GPU to themselves
step nbval python3 -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env nbs/
step bench_scale python3 benchmarks/bench_scale.py --csv "$OUT/scale.csv"
step bench_all python3 benchmarks/flashinfer_nb_benchmark.py --routine all --refcheck --output-path "$OUT/bench_all.csv" --plot "$OUT/bench_all.png"
exit $rc
