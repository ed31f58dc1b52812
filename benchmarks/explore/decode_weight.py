"""Issue 19, decode shapes: when the norm kernels read the weight. Our auto choice against the forced ones
(vpt_hint: v = late, one L2 round trip per vector in the store loop; 100 + v = early, with the row; 200 + v = late,
batched before the first store) and FlashInfer 0.7.2's kernel, timed like bench_vs_flashinfer.py (CUDA events around
one call, 256 MB L2 flush before each, median of 60, median of 3 interleaved rounds; PDL off).
FLASHINFER_WHEEL_DIR as there.

    python benchmarks/explore/decode_weight.py [--cases 'rms 14338 16' 'fused 16384 4' ...] [--rows 1 8 32 128 256]
"""
import argparse, os, sys, statistics
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, time_one
from flashinfer_nb.norm import get_norm_module

ap = argparse.ArgumentParser()
ap.add_argument('--cases', nargs='+', default=['rms 14338 16', 'fused 14338 16', 'fused 16384 4', 'rms 4096 1', 'fused 4096 1'],
                help="'OP HIDDEN VPT': the vectors per thread the dispatcher takes at decode for that hidden size")
ap.add_argument('--rows', nargs='+', type=int, default=[1, 8, 32, 128, 256])
ap.add_argument('--dtype', default='bfloat16')
a = ap.parse_args()
fi_norm, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))
m = get_norm_module()
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
n, rounds, dt = 60, 3, getattr(torch, a.dtype)
print(torch.cuda.get_device_name(), f'| {a.dtype} | median us (CUDA events, L2 flushed), median of {rounds} interleaved rounds')
for case in a.cases:
    op, h, v = case.split(); h, v = int(h), int(v)
    w = torch.randn(h, device='cuda', dtype=dt)
    for rows in a.rows:
        x = torch.randn(rows, h, device='cuda', dtype=dt); o = torch.empty_like(x); r = torch.randn_like(x)
        hints = {'auto': 0, 'late': v, 'early': 100 + v, **({'batched': 200 + v} if v >= 4 else {})}
        if op == 'rms':
            fns = {'fi': lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False)}
            fns.update({k: (lambda hv=hv: m.rmsnorm(o, x, w, 1e-6, 0.0, hv, False)) for k, hv in hints.items()})
        else:
            fns = {'fi': lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)}
            fns.update({k: (lambda hv=hv: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, hv, False)) for k, hv in hints.items()})
        for f in fns.values(): f()
        torch.cuda.synchronize()
        per = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items(): per[k].append(time_one(f, flush, n))
        med = {k: statistics.median(t) for k, t in per.items()}
        print(f"{op} {rows}x{h} (vpt {v}): " + '  '.join(f"{k} {t:.2f}" for k, t in med.items()) +
              f"  | FI/auto {med['fi'] / med['auto']:.2f}", flush=True)
