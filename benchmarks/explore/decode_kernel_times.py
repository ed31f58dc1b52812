"""Issue 19, session 28: kernel-only durations (CUPTI, `bench_gpu_time`, L2 cold before every call) of ours and
FlashInfer 0.7.2's norm and silu_and_mul kernels at decode batches, where event timing of a whole call (launch
included, ~3 us of floor) hides differences of 0.1 us in its own noise. Ours also with the weight forced late
(vpt_hint v: after the reduction) and early (100 + v: with the row) for the norm, v = the rule's vectors a thread.
Median of the round medians, rounds interleaved (every variant once per round). FLASHINFER_WHEEL_DIR as in bench_vs_flashinfer.py.

    python benchmarks/explore/decode_kernel_times.py [--rounds 5] [--repeat-ms 20] [--out FILE]
"""
import argparse, os, statistics, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules
from flashinfer_nb.norm import get_norm_module
from flashinfer_nb.activation import get_act_and_mul_module
from flashinfer_nb.testing import bench_gpu_time

ap = argparse.ArgumentParser()
ap.add_argument('--rounds', type=int, default=5); ap.add_argument('--repeat-ms', type=float, default=20.0)
ap.add_argument('--out', type=Path)
ap.add_argument('--hiddens', nargs='+', type=int, help='norm hidden sizes (default 1536 2048 4096 5120)')
ap.add_argument('--no-silu', action='store_true')
a = ap.parse_args()
fi_norm, fi_acts = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))
fi_act = fi_acts['silu']
m, act = get_norm_module(), get_act_and_mul_module('silu')
m.norm_clear_tuned(0); act.act_clear_tuned(0)   # the built-in rule, not a tuned entry
lines = [f"{torch.cuda.get_device_name()} | kernel us (CUPTI, L2 cold), median of {a.rounds} interleaved rounds of "
         f"{a.repeat_ms} ms each | tuned entries cleared: the built-in rule"]
ap2 = a.hiddens or [1536, 2048, 4096, 5120]
cases = [(op, r, d, dt) for dt in (torch.bfloat16, torch.float16) for op in ('rms', 'fused') for d in ap2
         for r in (8, 32, 128, 256)]
if not a.no_silu: cases += [('silu', r, 4096, dt) for dt in (torch.bfloat16, torch.float16) for r in (8, 32, 128, 256)]
print(lines[0], flush=True)
for op, rows, d, dt in cases:
    torch.manual_seed(0)
    if op == 'silu':
        x = torch.randn(rows, 2 * d, device='cuda', dtype=dt); o = torch.empty(rows, d, device='cuda', dtype=dt)
        fns = {'ours': lambda: act.silu_and_mul(o, x, False), 'fi': lambda: fi_act.silu_and_mul(o, x, False)}
    else:
        x = torch.randn(rows, d, device='cuda', dtype=dt); w = torch.randn(d, device='cuda', dtype=dt)
        o, r = torch.empty_like(x), torch.randn_like(x)
        vpt = 1 if d // (16 // x.element_size()) <= 512 else 2
        # ours with a launch hint (0: the rule; vpt: the weight late; 100 + vpt: early), and FlashInfer's
        if op == 'rms': ours, fi = (lambda h: m.rmsnorm(o, x, w, 1e-6, 0.0, h, False)), lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False)
        else: ours, fi = (lambda h: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, h, False)), lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)
        fns = {'ours': lambda: ours(0), 'late': lambda: ours(vpt), 'early': lambda: ours(100 + vpt), 'fi': fi}
    med = {k: [] for k in fns}
    for _ in range(a.rounds):
        for k, f in fns.items():
            t = bench_gpu_time(f, repeat_time_ms=a.repeat_ms, cold_l2_cache=True)
            med[k].append(statistics.median(t) * 1e3)
    res = {k: statistics.median(v) for k, v in med.items()}
    line = f"{op:5s} {rows:4d}x{d:<5d} {str(dt)[6:]:8s} " + '  '.join(f"{k} {v:5.2f}" for k, v in res.items())
    line += f"  | FI/ours {res['fi'] / res['ours']:.2f}" + (f"  FI/early {res['fi'] / res['early']:.2f}" if 'early' in res else '')
    print(line, flush=True); lines.append(line)
if a.out: a.out.write_text('\n'.join(lines) + '\n')
