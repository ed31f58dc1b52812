"""Session 48: tune the norm ops' launch choice again on this GPU with today's kernels (entries carry their kernel
fingerprint now), at the rows where the database's old entries still beat the rule: the 3/4 point of the 2048 and
8192 row buckets (1536, 6144) x 1536-8192, both ops, both dtypes. Writes the entries to --db; then
stale_tuned.py --db times each against the rule at the 3/4 point and the top of its bucket.
    python benchmarks/explore/retune_norm_s48.py --db OUT/tuning_db.json"""
import argparse, time, torch
from flashinfer_nb.norm import tune_norm

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--db', required=True); ap.add_argument('--rows', nargs='+', type=int, default=[1536, 6144])
ap.add_argument('--hiddens', nargs='+', type=int, default=[1536, 2048, 4096, 5120, 8192])
a = ap.parse_args()
shapes = [(r, d) for d in a.hiddens for r in a.rows]
for dt in (torch.bfloat16, torch.float16):
    for fused in (False, True):
        t0 = time.monotonic()
        res = tune_norm(shapes, dt, fused=fused, rounds=5, repeat_ms=10, csv=False, progress=False, db=a.db)
        print(f"{'fused_add_rmsnorm' if fused else 'rmsnorm'} {dt}: {len(shapes)} shapes in {time.monotonic() - t0:.1f} s")
        print(res)
