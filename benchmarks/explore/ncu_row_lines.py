"""Session 50 (for the next GPU session): why does a row that does not start on a 128-byte line cost the fused op 1.6-2.8 %
on the H200 (row_lines_fused.py, NVIDIA_H200_row_lines_fused_s50.txt)? Nsight Compute on the same kernel at one width,
rows contiguous (pad 0: on lines when the width is a multiple of 64) and as views of wider buffers (pad P: the stride
is width + P), each compared with the first; the memory tables (L1 / L2 sectors and requests, DRAM bytes) show where the
extra time goes. Clocks as the GPU runs them (flashinfer_nb.profile.ncu_profile).
    python benchmarks/explore/ncu_row_lines.py --rows 8192 --hidden 16384 --pads 0 8 64 --out DIR"""
import argparse, subprocess
from pathlib import Path
from flashinfer_nb.profile import ncu_profile, find_ncu, NCU_SECTIONS

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--rows', type=int, default=8192); ap.add_argument('--hidden', type=int, default=16384)
ap.add_argument('--pads', nargs='+', type=int, default=[0, 8, 64], help='extra elements a row (the stride - hidden)')
ap.add_argument('--op', default='fused_add_rmsnorm', choices=['fused_add_rmsnorm', 'rmsnorm'])
ap.add_argument('--dtype', default='bfloat16')
ap.add_argument('--out', type=Path, default=Path('ncu'))
a = ap.parse_args()
a.out.mkdir(parents=True, exist_ok=True)
call = 'fused_add_rmsnorm(x, r, w)' if a.op == 'fused_add_rmsnorm' else 'rmsnorm(x, w, out=o)'
prev = None
for pad in a.pads:
    n, d = a.rows, a.hidden
    setup = (f"import torch\nfrom flashinfer_nb.norm import {a.op}\n"
             f"bx, br, bo = (torch.randn({n}, {d + pad}, device='cuda', dtype=torch.{a.dtype}) for _ in range(3))\n"
             f"x, r, o = bx[:, :{d}], br[:, :{d}], bo[:, :{d}]\n"
             f"w = torch.randn({d}, device='cuda', dtype=torch.{a.dtype})\n{call}\n")
    res = ncu_profile(call, setup=setup, kernel='RMSNorm', report=a.out/f'{a.op}_{n}x{d}_pad{pad}_{a.dtype}',
                      sections=NCU_SECTIONS + ('MemoryWorkloadAnalysis_Tables', 'WarpStateStats'), compare=prev)
    print(f'== {a.op} {n}x{d} {a.dtype}, row stride {d + pad} ({(d + pad) * 2 % 128} bytes past a line each row)')
    print(res)
    print(subprocess.run([find_ncu(), '--import', str(res.report), '--page', 'details'], capture_output=True,
                         text=True).stdout)
    prev = res.report
