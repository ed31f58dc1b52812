"""Issue 19, session 36: is a row that starts off its 128-byte line slower? Ours and FlashInfer 0.7.2's fused_add_rmsnorm
and rmsnorm at widths whose contiguous rows start off a line (7000 bf16: 14000 bytes a row), the same rows at a
128-byte-aligned row stride, and the nearest multiple of 256, timed like bench_vs_flashinfer.py (trimmed means).
FLASHINFER_WHEEL_DIR as there: python benchmarks/explore/row_alignment.py [--rows R ...] [--cases WIDTH:STRIDE ...]"""
import os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, time_one, compare, norm_ab_fns, norm_ab_line
import argparse
ap = argparse.ArgumentParser()
ap.add_argument('--rows', type=int, nargs='+', default=[177, 241, 256])
ap.add_argument('--cases', nargs='+', default=['4104:4104', '4104:4160', '4096:4096', '5000:5000', '5000:5056', '5120:5120',
                                               '7000:7000', '7000:7040', '7168:7168'], help='WIDTH:ROW_STRIDE (elements)')
ap.add_argument('--n', type=int, default=40)
a = ap.parse_args()
fi_norm, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
cases = []
for dt in (torch.bfloat16, torch.float16):
    for rows in a.rows:
        for d, stride in (tuple(map(int, c.split(':'))) for c in a.cases):
            xb = torch.randn(rows, stride, device='cuda', dtype=dt); rb = torch.randn(rows, stride, device='cuda', dtype=dt)
            ob = torch.empty(rows, stride, device='cuda', dtype=dt)
            x, r, o = xb[:, :d], rb[:, :d], ob[:, :d]
            w = torch.randn(d, device='cuda', dtype=dt)
            cases.append((f'{rows}x{d} stride {stride} {str(dt)[6:]}', norm_ab_fns(fi_norm, x, r, w, o)))
res = compare(cases, flush, a.n, 3, timer=lambda fn, fl, n: time_one(fn, fl, n, 'trimmed'))
print(torch.cuda.get_device_name(), '| trimmed mean us, CUDA events, L2 flushed, median of 3 rounds')
for label, t in res:
    print(f"{label:34s} {norm_ab_line(t)}")
