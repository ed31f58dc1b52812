"""Issue 19: our RMSNorm block configs (vectors per thread forced through vpt_hint; 100 + v: the early-weight kernel)
against FlashInfer 0.7.2's kernel, a same-bytes copy and an empty kernel (the floor), timed like bench_vs_flashinfer.py
(CUDA events, L2 flushed, median of --n, median of --rounds interleaved rounds). FLASHINFER_WHEEL_DIR as there.
    python benchmarks/explore/decode_configs.py --rows 264 300 528 --hiddens 2560 4096 --vpts 0 2 4 102
Session 32 used it past the decode rule's 2 x SM-count rows, where the sweep found FlashInfer ahead."""
import argparse, os, sys, statistics
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, time_one
from flashinfer_nb.norm import get_norm_module
from flashinfer_nb.activation import get_act_and_mul_module

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--rows', nargs='+', type=int, default=[1, 32, 256])
ap.add_argument('--hiddens', nargs='+', type=int, default=[2048, 4096, 8192, 16384])
ap.add_argument('--dtypes', nargs='+', default=['bfloat16'])
ap.add_argument('--vpts', nargs='+', type=int, default=[0, 1, 2, 4, 8, 101, 102, 104])
ap.add_argument('--ops', nargs='+', default=['rmsnorm', 'fused_add_rmsnorm'],
                help="rmsnorm, fused_add_rmsnorm, silu_and_mul (then the hidden sizes are the gated output widths d)")
ap.add_argument('--act-name', default='silu', choices=['silu', 'gelu', 'gelu_tanh'], help='the gated op of --ops silu_and_mul')
ap.add_argument('--act-hints', nargs='+', type=int, default=[0, 41, 51, 61, 81, 42, 62, 82],
                help='silu_and_mul launch hints: 10 x (block threads / 32) + 1 (one vector a thread) or + 2 (16 bytes)')
ap.add_argument('--n', type=int, default=60); ap.add_argument('--rounds', type=int, default=3)
ap.add_argument('--stat', choices=['median', 'trimmed'], default='median', help='as bench_vs_flashinfer.py --stat')
a = ap.parse_args()

fi_norm, fi_acts = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']), (a.act_name,))
m = get_norm_module()
act = get_act_and_mul_module(a.act_name) if 'silu_and_mul' in a.ops else None
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
print(torch.cuda.get_device_name(), f'| {a.stat} us (CUDA events, L2 flushed), median of {a.rounds} interleaved rounds;',
      'vptV: vpt_hint V (0: the built-in rule; a hint with no kernel for the width is left out)')
for dt in (getattr(torch, d) for d in a.dtypes):
    for h in a.hiddens:
        w = torch.randn(h, device='cuda', dtype=dt)
        for rows in a.rows:
            x = torch.randn(rows, h, device='cuda', dtype=dt); o = torch.empty_like(x); r = torch.randn_like(x)
            fns = {'empty': lambda: torch.cuda._sleep(0), 'copy': lambda: o.copy_(x)}
            if act is not None:   # the gated op on rows of 2h: its own copy of the same bytes (2h in, h out ~ 1.5 x)
                gu, ao = torch.randn(rows, 2 * h, device='cuda', dtype=dt), torch.empty(rows, h, device='cuda', dtype=dt)
                n = a.act_name
                fi_fn, fn, hinted = (getattr(fi_acts[n], f'{n}_and_mul'), getattr(act, f'{n}_and_mul'),
                                     getattr(act, f'{n}_and_mul_hint'))
                fns[f'{n}_fi'] = lambda: fi_fn(ao, gu, False)
                for v in a.act_hints:
                    fns[f'{n}_h{v}'] = (lambda v=v: hinted(ao, gu, False, v) if v else fn(ao, gu, False))
            if 'rmsnorm' in a.ops:
                fns['fi'] = lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False)
                for v in a.vpts: fns[f'vpt{v}'] = (lambda v=v: m.rmsnorm(o, x, w, 1e-6, 0.0, v, False))
            if 'fused_add_rmsnorm' in a.ops:
                fns['fi_fused'] = lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)
                for v in a.vpts: fns[f'fused_vpt{v}'] = (lambda v=v: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, v, False))
            for k in list(fns):
                try: fns[k]()
                except (ValueError, RuntimeError): del fns[k]   # no kernel for this hint at this width
            torch.cuda.synchronize()
            per = {k: [] for k in fns}
            for _ in range(a.rounds):
                for k, f in fns.items(): per[k].append(time_one(f, flush, a.n, a.stat))
            print(f"{str(dt).split('.')[1]} {rows}x{h}: " + '  '.join(f"{k} {statistics.median(v):.2f}" for k, v in per.items()), flush=True)
