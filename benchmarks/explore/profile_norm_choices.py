"""Issue 19: Nsight Compute on two or more of the norm kernel's launch choices at one shape, in one profiled process
(each launch after ncu's own cache flush, as the timing tables flush L2). Choices are vpt_hint values, as in
decode_configs.py: 0 the built-in rule, v forces v vectors a thread with the late weight, 100 + v the early weight.
Writes OUT/<name>.ncu-rep (for the Nsight Compute GUI) and OUT/<name>_details.txt (`ncu --page details`).
    OUT=out python benchmarks/explore/profile_norm_choices.py --rows 300 --d 3072 --dtype float16 --hints 4 101
Prepared in session 32 for the one-wave rule (300 rows: the old rule's 4 / late weight against 1 / early)."""
import argparse, os, subprocess
from flashinfer_nb.profile import ncu_profile, find_ncu
from flashinfer_nb.norm import get_norm_module

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--rows', type=int, default=300); ap.add_argument('--d', type=int, default=3072)
ap.add_argument('--dtype', default='float16', choices=['float16', 'bfloat16', 'float32'])
ap.add_argument('--hints', nargs='+', type=int, default=[4, 101])
ap.add_argument('--fused', action='store_true', help='fused_add_rmsnorm instead of rmsnorm')
a = ap.parse_args()
out = os.environ.get('OUT', 'out_profile'); os.makedirs(out, exist_ok=True)
get_norm_module()   # built here, so the profiled process only loads it
op = 'fused_add_rmsnorm' if a.fused else 'rmsnorm'
call = (lambda h: f"m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, {h}, False)") if a.fused else \
       (lambda h: f"m.rmsnorm(o, x, w, 1e-6, 0.0, {h}, False)")
setup = (f"import torch\nfrom flashinfer_nb.norm import get_norm_module\nm = get_norm_module()\n"
         f"x, r = (torch.randn({a.rows}, {a.d}, device='cuda', dtype=torch.{a.dtype}) for _ in range(2))\n"
         f"w = torch.randn({a.d}, device='cuda', dtype=torch.{a.dtype}); o = torch.empty_like(x)\n"
         + ''.join(call(h) + '\n' for h in a.hints) + "torch.cuda.synchronize()")
name = f"{op}_{a.rows}x{a.d}_{a.dtype}"
res = ncu_profile('; '.join(call(h) for h in a.hints), setup=setup, kernel='RMSNorm', report=f'{out}/{name}',
                  sections=('SpeedOfLight', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'MemoryWorkloadAnalysis'))
print(f"{name}: hints {a.hints}, in that order"); print(res)
d = subprocess.run([find_ncu(), '--import', f'{out}/{name}.ncu-rep', '--page', 'details'], capture_output=True, text=True, timeout=120)
with open(f'{out}/{name}_details.txt', 'w') as f: f.write(d.stdout + d.stderr)
