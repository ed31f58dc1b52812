#!/usr/bin/env bash
# Tune the library ops' launch configurations on this GPU (issue 18) and write them to one database file:
# scale (tune_scale), the norm kernels (tune_norm: rmsnorm and fused_add_rmsnorm) and silu_and_mul (tune_act), bf16
# and fp16, decode and prefill shapes. Prints a before/after table (the built-in rule vs the tuned entry, kernel time, L2 flushed).
#   OUT=out bash benchmarks/tune_ops_gpu.sh            # then, to ship the entries in the wheel:
#   python -c "from flashinfer_nb.tune import merge_db; print(merge_db('out/tuning_db.json', 'flashinfer_nb/tuning_db.json'))"
set -u
export OUT=${OUT:-out_tune_ops}; mkdir -p "$OUT"
export FLASHINFER_NB_TUNE_DB="$OUT/tuning_db.json"
PY=${PYTHON:-python3}
$PY - <<'PY' 2>&1 | tee "$OUT/tune_ops.txt"
import os, statistics, time, torch, importlib
N, S, T = (importlib.import_module(f'flashinfer_nb.{m}') for m in ('norm', 'scale', 'tune'))
from flashinfer_nb.testing import bench_gpu_time
gpu = torch.cuda.get_device_name(0); print(f"GPU: {gpu}")
t0 = time.monotonic()
S.tune_scale((1 << 16, 1 << 20, 1 << 24, 1 << 27), torch.bfloat16, rounds=5, repeat_ms=10, csv=False, progress=False, min_gain=0.03)
print(f"scale tuned in {time.monotonic() - t0:.1f} s")
shapes = [(r, d) for d in (4096, 8192) for r in (1, 8, 32, 128, 256, 2048, 8192)] + [(r, 14336) for r in (1, 32, 256)]
# the narrow hidden sizes where fused_add_rmsnorm trailed FlashInfer at 8192 rows (0.98-0.99x, H200, session 24)
shapes += [(r, d) for d in (1536, 2048) for r in (256, 2048, 8192)]
for dt in (torch.bfloat16, torch.float16):
    for fused in (False, True):
        t0 = time.monotonic()
        N.tune_norm(shapes, dt, fused=fused, rounds=5, repeat_ms=10, csv=False, progress=False)
        print(f"{'fused_add_rmsnorm' if fused else 'rmsnorm'} {dt}: {len(shapes)} shapes tuned in {time.monotonic() - t0:.1f} s")
A = importlib.import_module('flashinfer_nb.activation')
act_shapes = [(r, d) for d in (14336, 4096) for r in (1, 32, 256, 8192)]
for dt in (torch.bfloat16, torch.float16):
    t0 = time.monotonic()
    A.tune_act('silu', act_shapes, dt, rounds=5, repeat_ms=10, csv=False, progress=False)
    print(f"silu_and_mul {dt}: {len(act_shapes)} shapes tuned in {time.monotonic() - t0:.1f} s")
T.reload_db(); m = N.get_norm_module(); print(f"entries applied: {N.apply_tuned(m)}")
am = A.get_act_and_mul_module('silu'); print(f"silu entries applied: {A.apply_tuned_act('silu', am)}")
def t_us(fn):   # median of 3 interleaved medians is taken by the caller
    return statistics.median(bench_gpu_time(fn, repeat_time_ms=20)) * 1e3
print("\nbefore (built-in rule, vpt 0 with the table cleared) / after (the tuned entry), µs, median of 3 x 20 ms, L2 flushed:")
print(f"{'op':<18} {'dtype':<9} {'shape':>11} {'tuned':>6} {'before':>8} {'after':>8} {'speed-up':>8}")
for dt in (torch.bfloat16, torch.float16):
    for op in ('rmsnorm', 'fused_add_rmsnorm'):
        for rows, d in shapes:
            cfg = T.lookup(op, dt, T.row_bucket(rows, d))
            if cfg is None or not cfg.get("VPT"): continue
            x = torch.randn(rows, d, device='cuda', dtype=dt); w = torch.randn(d, device='cuda', dtype=dt)
            r = torch.randn_like(x); o = torch.empty_like(x); v = cfg['VPT']
            f = (lambda h: (lambda: m.rmsnorm(o, x, w, 1e-6, 0.0, h, False))) if op == 'rmsnorm' else (lambda h: (lambda: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, h, False)))
            m.norm_clear_tuned(0)
            b, a = [], []
            for _ in range(3): b.append(t_us(f(0))); a.append(t_us(f(v)))
            b, a = statistics.median(b), statistics.median(a)
            print(f"{op:<18} {str(dt)[6:]:<9} {f'{rows}x{d}':>11} {v:>6} {b:8.2f} {a:8.2f} {b / a:7.3f}x")
N.apply_tuned(m)
for dt in (torch.bfloat16, torch.float16):
    for rows, d in act_shapes:
        cfg = T.lookup('silu_and_mul', dt, T.row_bucket(rows, d))
        if cfg is None or not cfg.get("HINT"): continue
        x = torch.randn(rows, 2 * d, device='cuda', dtype=dt); o = torch.empty(rows, d, device='cuda', dtype=dt)
        am.act_clear_tuned(0)
        b, a = [], []
        for _ in range(3):
            b.append(t_us(lambda: am.silu_and_mul(o, x, False))); a.append(t_us(lambda: am.silu_and_mul_hint(o, x, False, cfg['HINT'])))
        b, a = statistics.median(b), statistics.median(a)
        print(f"{'silu_and_mul':<18} {str(dt)[6:]:<9} {f'{rows}x{d}':>11} {cfg['HINT']:>6} {b:8.2f} {a:8.2f} {b / a:7.3f}x")
A.apply_tuned_act('silu', am)
PY
echo "database: $FLASHINFER_NB_TUNE_DB"
