"""Issue 19, session 37: does where a case's buffers sit move its time? In a sweep holding ~40 GB of other cases,
rmsnorm 192 and 238 x 3200 fp16 read 1.013-1.025x FlashInfer in every timing; alone, minutes later, 1.05-1.06x
(benchmarks/results/NVIDIA_H200_issue19_rand_seed38_s37.txt). This times ours and FlashInfer 0.7.2's rmsnorm and
fused_add_rmsnorm on the same shapes with their buffers carved at several byte offsets from fresh blocks, first with
nothing else allocated, then after each amount of ballast (GB of other allocations, kept alive), timed like
bench_vs_flashinfer.py (trimmed means, CUDA events, L2 flushed, interleaved rounds).
FLASHINFER_WHEEL_DIR as there:
    python benchmarks/explore/placement.py [--rows 192 238] [--hiddens 3200] [--ballast-gb 0 8 40] [--offsets 0 256 4096]"""
import argparse, os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, time_one, compare, norm_ab_fns, norm_ab_line

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--rows', type=int, nargs='+', default=[192, 238])
ap.add_argument('--hiddens', type=int, nargs='+', default=[3200])
ap.add_argument('--dtypes', nargs='+', default=['float16', 'bfloat16'])
ap.add_argument('--ballast-gb', type=float, nargs='+', default=[0, 8, 40],
                help='cumulative GB of other allocations before each pass (ascending)')
ap.add_argument('--offsets', type=int, nargs='+', default=[0, 256, 4096, 65536],
                help='byte offsets of every buffer from the start of its own block (multiples of 256 keep the kernels)')
ap.add_argument('--n', type=int, default=40)
ap.add_argument('--rounds', type=int, default=3)
args = ap.parse_args()
if args.ballast_gb != sorted(args.ballast_gb): ap.error('--ballast-gb must be ascending (the ballast only grows)')
if any(o % 256 for o in args.offsets): ap.error('--offsets must be multiples of 256 (16-byte vectors, the same kernels)')

fi_norm, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
ballast, held = [], 0.0

def carved(shape, dt, off):
    "A tensor of `shape` starting `off` bytes into a fresh block of its own."
    n = 1
    for s in shape: n *= s
    block = torch.empty(off + n * dt.itemsize, dtype=torch.uint8, device='cuda')
    t = block[off:].view(dt).view(*shape)
    t.normal_()
    return t, block

print(torch.cuda.get_device_name(), '| trimmed mean us, CUDA events, L2 flushed, median of', args.rounds,
      'interleaved rounds; FI/ours in parentheses')
for gb in args.ballast_gb:
    while held < gb:                       # 1 GB pieces, so the allocator places them like a sweep's cases
        ballast.append(torch.empty(1 << 30, dtype=torch.uint8, device='cuda')); held += 1
    cases, keep = [], []
    for name in args.dtypes:
        dt = getattr(torch, name)
        for rows in args.rows:
            for d in args.hiddens:
                for off in args.offsets:
                    (x, bx), (r, br), (o, bo), (w, bw) = (carved((rows, d), dt, off), carved((rows, d), dt, off),
                                                          carved((rows, d), dt, off), carved((d,), dt, off))
                    keep += [bx, br, bo, bw]
                    cases.append((f'ballast {held:4.0f} GB  {rows}x{d} {name:8s} offset {off:6d}',
                                  norm_ab_fns(fi_norm, x, r, w, o)))
    res = compare(cases, flush, args.n, args.rounds, timer=lambda fn, fl, n: time_one(fn, fl, n, 'trimmed'))
    for label, t in res:
        print(f"{label}  {norm_ab_line(t)}")
    del cases, keep, res
