"""Issue 19, decode shapes: our RMSNorm block configs (vectors per thread forced through vpt_hint) against
FlashInfer 0.7.2's kernel, a same-bytes copy and an empty kernel (the floor), timed like bench_vs_flashinfer.py.
FLASHINFER_WHEEL_DIR as there."""
import os, sys, statistics
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, time_one
from flashinfer_nb.norm import get_norm_module

fi_norm, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))
m = get_norm_module()
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
n, rounds = 60, 3
print(torch.cuda.get_device_name(), '| median us (CUDA events, L2 flushed), median of', rounds, 'interleaved rounds')
empty = lambda: torch.cuda._sleep(0)
for dt in (torch.bfloat16,):
    for h in (2048, 4096, 8192, 16384):
        w = torch.randn(h, device='cuda', dtype=dt)
        for rows in (1, 32, 256):
            x = torch.randn(rows, h, device='cuda', dtype=dt); o = torch.empty_like(x); r = torch.randn_like(x)
            fns = {'empty': empty, 'copy': lambda: o.copy_(x), 'fi': lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False)}
            for v in (0, 1, 2, 4, 8, 101, 102, 104): fns[f'vpt{v}'] = (lambda v=v: m.rmsnorm(o, x, w, 1e-6, 0.0, v, False))
            fns['fi_fused'] = lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)
            for v in (0, 1, 2, 4, 101, 102, 104): fns[f'fused_vpt{v}'] = (lambda v=v: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, v, False))
            for f in fns.values(): f()
            torch.cuda.synchronize()
            per = {k: [] for k in fns}
            for _ in range(rounds):
                for k, f in fns.items(): per[k].append(time_one(f, flush, n))
            print(f"{rows}x{h}: " + '  '.join(f"{k} {statistics.median(v):.2f}" for k, v in per.items()), flush=True)
