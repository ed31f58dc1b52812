#!/usr/bin/env bash
# Every kernel, at its edge shapes, dtypes and layouts, under compute-sanitizer memcheck, racecheck and
# initcheck: one row per op and tool, exit 1 on any error. Needs a GPU and compute-sanitizer (CUDA toolkit).
# Usage: .ci/sanitize.sh [op ...]      TOOLS=memcheck,racecheck .ci/sanitize.sh scale
# Ops come from flashinfer_nb.op_cases.OP_CASES (nbs/96_op_cases.ipynb): adding an op there adds it here.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:${CUDA_HOME:-/usr/local/cuda}/bin"
exec python3 -m flashinfer_nb.op_cases sanitize --tools "${TOOLS:-memcheck,racecheck,initcheck}" "$@"
