#!/usr/bin/env python3
"""The unified benchmark CLI: every registered routine (each op registers its own) against its baselines.

    python benchmarks/flashinfer_nb_benchmark.py --routine scale --backends flashinfer_nb torch --log2-sizes 20 24 28 \
        --dtype float16 --refcheck --output-path benchmarks/results/NVIDIA_H200.csv --plot scale.png
    python benchmarks/flashinfer_nb_benchmark.py --routine all --dry-run     # the plan; needs no GPU
    python benchmarks/flashinfer_nb_benchmark.py --help                      # routines and their shape flags

The runner lives in flashinfer_nb.bench (nbs/04a_bench.ipynb); the timing in flashinfer_nb.testing.
"""
import sys

from flashinfer_nb.bench import main

if __name__ == '__main__':
    sys.exit(main())
