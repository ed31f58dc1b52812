#!/usr/bin/env python3
"""Time flashinfer_nb.scale against torch.mul, in one run, with the same-run copy ceiling.

A thin wrapper over the unified CLI (benchmarks/flashinfer_nb_benchmark.py --routine scale): median after
warm-up, cold L2, CUPTI (or CUDA events); bytes counted: n elements read + n written.

    python benchmarks/bench_scale.py [--log2-sizes 20 22 24 26 28] [--dtypes float16 bfloat16 float32] [--csv out.csv]
                                     [any other flag of flashinfer_nb_benchmark.py, e.g. --refcheck --plot scale.png]
"""
import sys

from flashinfer_nb.bench import main

# this script's historical flag names -> the CLI's
ALIASES = {'--csv': '--output-path', '--dtypes': '--dtype'}

if __name__ == '__main__':
    sys.exit(main(['--routine', 'scale'] + [ALIASES.get(a, a) for a in sys.argv[1:]]))
