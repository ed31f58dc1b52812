"""Issue 19, session 64: one gated launch of ours and one of FlashInfer's (0.7.2.post1, built from its wheel as
bench_vs_flashinfer.py does) at ROWS x D, for Nsight Compute to profile side by side:

    FLASHINFER_WHEEL_DIR=... ncu --section SpeedOfLight --section Occupancy --section LaunchStats \\
        --section WarpStateStats --section SchedulerStats --kernel-name regex:"(?i)act_?and_?mul" \\
        python3 benchmarks/explore/ncu_gated_vs_fi.py [--act silu] [--rows 3000] [--d 1004] [--dtype float16]

Each kernel runs once after the modules are built (no warm-up launch of the gated kernels), outputs compared.
"""
import argparse, sys
from pathlib import Path
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_vs_flashinfer import ACTS, gated_pair

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--act', default='silu', choices=list(ACTS))
ap.add_argument('--rows', type=int, default=3000)
ap.add_argument('--d', type=int, default=1004)
ap.add_argument('--dtype', default='float16', choices=['float16', 'bfloat16'])
a = ap.parse_args()
ours, fi = gated_pair(a.act)
dt = getattr(torch, a.dtype)
x = torch.randn(a.rows, 2 * a.d, device='cuda', dtype=dt)
o1, o2 = (torch.empty(a.rows, a.d, device='cuda', dtype=dt) for _ in range(2))
torch.cuda.synchronize()
ours(x, out=o1, skip_check=True)
fi(o2, x, False)
torch.cuda.synchronize()
torch.testing.assert_close(o1, o2, rtol=1e-2, atol=1e-2)
print(f'{a.act}_and_mul {a.rows}x{a.d} {a.dtype}: ours and FlashInfer agree')
