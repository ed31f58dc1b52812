"""The packed groups' shapes (session 59: norm.cuh's packed_pairs_group and packed_singles_group) as a compute-sanitizer
memcheck workload, through tests/test_norm.py's own guarded checks (poisoned guard columns and row, the residual bit for
bit) but without its profiler (CUPTI beside the sanitizer). Every tensor is its exact size with
PYTORCH_NO_CUDA_MEMORY_CACHING=1, so a read past a row's last element is a read outside the allocation:

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck --print-limit 20 \\
        python3 benchmarks/explore/packed_memcheck.py pairs|singles|warprows|twowarp [--dtype bfloat16]

pairs: 2- and 4-element rows 2-1026 wide at rows on both sides of every bound (4-96 x the SMs) and views 2 or 4
elements into 8-element rows; singles: odd rows 1-513 wide at 1 and 3 rows and on both sides of every bound (2-96 x)
and views one element in; warprows (session 60: norm_peeled.cuh's pieces kernel at one warp a row, 4 rows a block) odd
rows 513-1023 and views an element into even ones, on both sides of 15 and 30 x the SMs and with a part-full last block;
twowarp (session 61: rmsnorm's rows of 1025-2048 two warps a row, two rows a block, norm.cuh's two_warp_rows) rows of
every class on both sides of 15, 18 and 48 x the SMs, odd row counts (the last block's second row dead: it reads the
last row and stores nothing), views 1, 2 and 4 elements in; session 62: 2 and 3 chunks a lane (1025-1031, 1032-1543
wide), the 3-chunk kernel capped in (24, 32] x the SMs, odd rows to 1031 past 15 x, 2- and 4-element rows past
9-10 x, the peeled rule's 10 x bound; session 63: 4-chunk rows (1544-2048) in (24, 32] x one warp a row at 8 chunks, the
bands' starts; session 64: 3-chunk rows there one warp a row too (no capped kernel), odd rows of 1152-2047 in (21, 32] x;
session 68: singles at the SM count and one past too (the short-row kernel's early weight reaches the SM count) and 625
and 1023 wide (two elements a thread); session 69: 641, 767 and 769 wide and views one element into 640 and 1024 (two
elements a thread in blocks on both sides of 320 threads: four a thread past the SM count), and 1.5 x the SMs + 1 rows.
Prints `pairs|singles|warprows|twowarp N shapes checked`.
"""
import argparse, sys
from pathlib import Path
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.test_norm import _check_norms_in_guards, _check_rms_in_guards, _check_fused_in_guards

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('which', choices=['pairs', 'singles', 'warprows', 'twowarp'])
ap.add_argument('--dtype', default='bfloat16', choices=['bfloat16', 'float16'])
a = ap.parse_args()
dt = getattr(torch, a.dtype)
sms = torch.cuda.get_device_properties(0).multi_processor_count
view_rows = (8, 2 * sms + 1, 12 * sms + 1, 34 * sms + 1, 64 * sms + 1, 20003)   # the views' rows (warprows, twowarp: rows_list)
if a.which == 'pairs':
    rows_list = sorted({7, 8, 20003} | {k * sms + e for k in (4, 6, 9, 12, 18, 32, 34, 96) for e in (0, 1)})
    widths = (2, 6, 34, 66, 130, 194, 258, 260, 386, 510, 514, 516, 642, 766, 770, 772, 802, 804, 1020, 1022, 1026)
    views = ((256, 4), (768, 2), (1016, 4))
elif a.which == 'warprows':
    rows_list = sorted({15 * sms + 1, 15 * sms + 2, 30 * sms + 1, 30 * sms + 3, 20003})
    widths = (513, 515, 641, 799, 801, 999, 1023)
    views = ((514, 1), (800, 1), (1022, 1))
    view_rows = rows_list
elif a.which == 'twowarp':
    rows_list = sorted({9 * sms + 1, 10 * sms + 1, 15 * sms + 1, 18 * sms + 1, 21 * sms + 1, 24 * sms + 1, 24 * sms + 5,
                        24 * sms + 9, 32 * sms - 1, 32 * sms, 32 * sms + 1, 48 * sms + 1, 20003})
    widths = (1025, 1026, 1028, 1030, 1031, 1032, 1094, 1151, 1153, 1283, 1290, 1536, 1542, 1543, 1544, 1545, 1548, 1790,
              2046, 2047, 2048)
    views = ((1032, 1), (1032, 2), (1032, 4), (2048, 2))
    view_rows = rows_list
else:
    rows_list = sorted({1, 3, sms, sms + 1, 3 * sms // 2 + 1, 20003} | {k * sms + e for k in (2, 4, 8, 64, 96) for e in (0, 1)})
    widths = (1, 3, 33, 65, 129, 193, 255, 257, 321, 385, 447, 449, 511, 513, 625, 641, 767, 769, 1023)
    views = ((64, 1), (256, 1), (448, 1), (512, 1), (640, 1), (1024, 1))
n = 0
for d in widths:
    w = torch.randn(d, device='cuda', dtype=dt)
    for rows in rows_list:
        _check_norms_in_guards(w, rows, 8); n += 1
for d, o in views:
    w = torch.randn(d, device='cuda', dtype=dt)
    for rows in view_rows:
        x, r = (torch.randn(rows, d, device='cuda', dtype=dt) for _ in range(2))
        _check_rms_in_guards(w, x, 8, o)
        if a.which != 'twowarp': _check_fused_in_guards(w, x, r, 8, o)   # the two-warp rows are rmsnorm's
        n += 1
torch.cuda.synchronize()
print(a.which, n, 'shapes checked')
