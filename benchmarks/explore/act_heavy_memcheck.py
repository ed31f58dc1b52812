"""GELU's narrow rows under session 60's rule (activation.cuh, kMathHeavy: one vector a thread for 4-element rows of
129-512 vectors to 64 / 24 x the SMs, 8 bytes a thread for odd rows to 24 x 256 threads an SM) as a compute-sanitizer
memcheck workload. Every tensor is its exact size with PYTORCH_NO_CUDA_MEMORY_CACHING=1, so a read or write past the
last row's end is outside the allocation; each output is compared with float64 torch:

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck --print-limit 20 \\
        python3 benchmarks/explore/act_heavy_memcheck.py [--dtype bfloat16]

The widths and row counts of tests/test_activation.py's test_act_heavy_narrow_rows (both sides of every bound); then
SiLU's and GELU-tanh's 4-element rows under sessions 64 / 66's rule (one vector a thread to 144-384 warps an SM:
test_act_light_quads' widths and rows); then session 66's rows of 257-512 16-byte vectors past decode (one block of
exactly the row where no split of 104+ threads exists, past 65535 rows on a 1-D grid: test_act_split_rows_past_decode's
widths and rows), every op; then session 67's rows of 513+ vectors whose exact split of under 112 threads becomes
wider blocks on long grids (SiLU and GELU-tanh: test_act_wide_split_long_grids' widths, at and past the grid bound).
Prints `N shapes checked`.
"""
import argparse, sys
from pathlib import Path
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.test_activation import (HEAVY_WIDTHS, LIGHT_QUAD_WIDTHS, SPLIT_ROWS, WIDE_SPLITS, OPS, _heavy_rows,
                                   _light_quads_rows, _wide_split_edge)

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--dtype', default='bfloat16', choices=['bfloat16', 'float16'])
args = ap.parse_args()
dt = getattr(torch, args.dtype)
sms = torch.cuda.get_device_properties(0).multi_processor_count


def check(d, rows, names, chunk=8192):
    """Each op of `names` (tests' OPS) at rows x d against its float64 torch reference, `chunk` rows at a time (a whole
    65537 x 6216 float64 reference and its comparison's temporaries ran out of memory under the sanitizer); returns the
    shapes checked."""
    x = torch.randn(rows, 2 * d, device='cuda', dtype=dt)
    for name in names:
        fn, act = OPS[name]
        y = fn(x)
        for r in range(0, rows, chunk):
            a, b = x[r:r + chunk, :d].double(), x[r:r + chunk, d:].double()
            torch.testing.assert_close(y[r:r + chunk].double(), act(a) * b, rtol=4e-3, atol=2e-3)
    return len(names)


n = sum(check(d, rows, ('gelu',)) for d in HEAVY_WIDTHS for rows in _heavy_rows(d, sms))
n += sum(check(d, rows, ('silu', 'gelu_tanh')) for d in LIGHT_QUAD_WIDTHS for rows in _light_quads_rows(d, sms))
n += sum(check(d, rows, tuple(OPS)) for d in SPLIT_ROWS for rows in (3 * sms, 65537))
n += sum(check(d, rows, ('silu', 'gelu_tanh')) for d, blocks in WIDE_SPLITS.items()
         for rows in (_wide_split_edge(blocks, sms), 65537))
torch.cuda.synchronize()
print(n, 'shapes checked')
