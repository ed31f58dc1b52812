"""Session 48: the launch choices a tuning database recorded for this GPU (norm VPT, gated HINT), against the built-in
rule of today's kernels, at the top and the middle of each entry's row bucket, with FlashInfer's kernel on the same
rows. Timed as bench_vs_flashinfer times (CUDA events around one call, 256 MB L2 flush before each, trimmed mean of n,
median of interleaved rounds). The entry's choice is passed as the binding's hint, as the tuned table would pass it
(the table itself is cleared: the rule runs with hint 0).
    FLASHINFER_WHEEL_DIR=... python benchmarks/explore/stale_tuned.py --db benchmarks/results/tuning_db_before_s48.json"""
import argparse, os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, compare, time_one
from flashinfer_nb import tune as T
from flashinfer_nb.norm import get_norm_module
from flashinfer_nb.activation import get_act_and_mul_module

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--db', type=Path, required=True); ap.add_argument('--out', type=Path)
ap.add_argument('--n', type=int, default=20); ap.add_argument('--rounds', type=int, default=3)
a = ap.parse_args()
gpu = torch.cuda.get_device_name()
entries = [(op, dt, b, e['config']) for op, dts in T.read_db(a.db).get(gpu, {}).items() for dt, bs in dts.items()
           for b, e in bs.items() if op in ('rmsnorm', 'fused_add_rmsnorm', 'silu_and_mul')
           and int(next(iter(e['config'].values()))) > 0]
fi_norm, fi_acts = fi_modules(Path(os.environ.get('FLASHINFER_WHEEL_DIR', '')), ('silu',))
m, act = get_norm_module(), get_act_and_mul_module('silu')
for i in range(torch.cuda.device_count()): m.norm_clear_tuned(i); act.act_clear_tuned(i)
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
cases = []
for op, dt, bucket, cfg in sorted(entries):
    top, d = (int(v) for v in bucket.split('x')); hint = int(next(iter(cfg.values()))); dtype = getattr(torch, dt)
    for rows in sorted({top, max(1, top * 3 // 4)}):
        w = torch.randn(d, device='cuda', dtype=dtype)
        if op == 'silu_and_mul':
            x = torch.randn(rows, 2 * d, device='cuda', dtype=dtype); o = torch.empty(rows, d, device='cuda', dtype=dtype)
            fns = {'entry': lambda x=x, o=o, h=hint: act.silu_and_mul_hint(o, x, False, h),
                   'rule': lambda x=x, o=o: act.silu_and_mul(o, x, False),
                   'FI': lambda x=x, o=o: fi_acts['silu'].silu_and_mul(o, x, False)}
        elif op == 'rmsnorm':
            x = torch.randn(rows, d, device='cuda', dtype=dtype); o = torch.empty_like(x)
            fns = {'entry': lambda x=x, o=o, w=w, h=hint: m.rmsnorm(o, x, w, 1e-6, 0.0, h, False),
                   'rule': lambda x=x, o=o, w=w: m.rmsnorm(o, x, w, 1e-6, 0.0, 0, False),
                   'FI': lambda x=x, o=o, w=w: fi_norm.rmsnorm(o, x, w, 1e-6, False)}
        else:
            x = torch.randn(rows, d, device='cuda', dtype=dtype); r = torch.randn_like(x)
            fns = {'entry': lambda x=x, r=r, w=w, h=hint: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, h, False),
                   'rule': lambda x=x, r=r, w=w: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, 0, False),
                   'FI': lambda x=x, r=r, w=w: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)}
        cases.append((f"{op} {rows}x{d} {dt} hint {hint}", fns))
res = compare(cases, flush, a.n, a.rounds, timer=lambda fn, fl, n: time_one(fn, fl, n, 'trimmed'))
lines = [f"{gpu}: entries of {a.db.name} against today's rule; us per call (trimmed mean of {a.n}, median of {a.rounds} "
         "rounds, L2 flushed); entry/rule > 1: the recorded choice is slower",
         f"{'case':<46}{'entry':>9}{'rule':>9}{'FI':>9}{'entry/rule':>12}{'FI/entry':>10}{'FI/rule':>9}"]
lines += [f"{label:<46}{t['entry']:9.2f}{t['rule']:9.2f}{t['FI']:9.2f}{t['entry'] / t['rule']:12.3f}"
          f"{t['FI'] / t['entry']:10.3f}{t['FI'] / t['rule']:9.3f}" for label, t in res]
print('\n'.join(lines))
if a.out: a.out.write_text('\n'.join(lines) + '\n')
