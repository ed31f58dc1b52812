"""Issue 19: Nsight Compute on two or more of the norm kernel's launch choices at one shape, in one profiled process
(each launch after ncu's own cache flush, as the timing tables flush L2). Choices are vpt_hint values, as in
decode_configs.py: 0 the built-in rule, v forces v vectors a thread with the late weight, 100 + v the early weight.
Writes OUT/<name>.ncu-rep (for the Nsight Compute GUI) and OUT/<name>_details.txt (`ncu --page details`).
    OUT=out python benchmarks/explore/profile_norm_choices.py --rows 300 --d 3072 --dtype float16 --hints 4 101
    OUT=out FLASHINFER_WHEEL_DIR=... python benchmarks/explore/profile_norm_choices.py --fused --rows 16384 --d 16384 \
        --dtype bfloat16 --hints 0 --flashinfer
Session 32 wrote it for the one-wave rule (300 rows: the old rule's 4 / late weight against 1 / early); session 33 ran
that, and added --flashinfer (FlashInfer 0.7.2's own kernel after ours, built from FLASHINFER_WHEEL_DIR as in
bench_vs_flashinfer.py) for the fused op at 16384 x 16384."""
import argparse, os, subprocess, sys
from pathlib import Path
from flashinfer_nb.profile import ncu_profile, find_ncu
from flashinfer_nb.norm import get_norm_module

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--rows', type=int, default=300); ap.add_argument('--d', type=int, default=3072)
ap.add_argument('--dtype', default='float16', choices=['float16', 'bfloat16', 'float32'])
ap.add_argument('--hints', nargs='+', type=int, default=[4, 101])
ap.add_argument('--fused', action='store_true', help='fused_add_rmsnorm instead of rmsnorm')
ap.add_argument('--flashinfer', action='store_true', help="also FlashInfer 0.7.2's kernel (FLASHINFER_WHEEL_DIR)")
a = ap.parse_args()
out = os.environ.get('OUT', 'out_profile'); os.makedirs(out, exist_ok=True)
bench = str(Path(__file__).resolve().parents[1])
fi_setup = ''
if a.flashinfer:
    sys.path.insert(0, bench)
    from bench_vs_flashinfer import fi_modules
    fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))   # built here too
    fi_setup = (f"import os, sys\nfrom pathlib import Path\nsys.path.insert(0, {bench!r})\n"
                "from bench_vs_flashinfer import fi_modules\nfi, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']))\n")
get_norm_module()   # built here, so the profiled process only loads it
op = 'fused_add_rmsnorm' if a.fused else 'rmsnorm'
call = (lambda h: f"m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, {h}, False)") if a.fused else \
       (lambda h: f"m.rmsnorm(o, x, w, 1e-6, 0.0, {h}, False)")
calls = [call(h) for h in a.hints] + ([("fi.fused_add_rmsnorm(x, r, w, 1e-6, False)" if a.fused else
                                       "fi.rmsnorm(o, x, w, 1e-6, False)")] if a.flashinfer else [])
setup = (fi_setup + f"import torch\nfrom flashinfer_nb.norm import get_norm_module\nm = get_norm_module()\n"
         f"x, r = (torch.randn({a.rows}, {a.d}, device='cuda', dtype=torch.{a.dtype}) for _ in range(2))\n"
         f"w = torch.randn({a.d}, device='cuda', dtype=torch.{a.dtype}); o = torch.empty_like(x)\n"
         + ''.join(c + '\n' for c in calls) + "torch.cuda.synchronize()")
name = f"{op}_{a.rows}x{a.d}_{a.dtype}"
res = ncu_profile('; '.join(calls), setup=setup, kernel='RMSNorm', report=f'{out}/{name}', timeout=240,
                  sections=('SpeedOfLight', 'Occupancy', 'LaunchStats', 'WarpStateStats', 'MemoryWorkloadAnalysis',
                            'SchedulerStats'))
print(f"{name}: hints {a.hints}{', then FlashInfer' if a.flashinfer else ''}, in that order"); print(res)
d = subprocess.run([find_ncu(), '--import', f'{out}/{name}.ncu-rep', '--page', 'details'], capture_output=True, text=True, timeout=120)
with open(f'{out}/{name}_details.txt', 'w') as f: f.write(d.stdout + d.stderr)
