"""Session 48: fused_add_rmsnorm at 2048 x 2048 ran ~4 % slower in fp16 than in bf16 on the same bytes (H200: 12.8 against
12.3 us; the copy 12.3), the one shape in the issue's range under 1.0x FlashInfer. Nsight Compute on the kernel of each
dtype (flashinfer_nb.profile.ncu_profile, clocks as the GPU runs them), each compared with the one before, and each
report's full details page.
    python benchmarks/explore/ncu_fused_dtypes.py --rows 2048 --hidden 2048 --out DIR
Session 50: `--pads` also profiles each dtype with its rows as views of wider buffers (the row stride hidden + P), to see
why a row that does not start on a 128-byte line costs the fused op 1.6-2.8 % on the H200 (row_lines_fused.py,
NVIDIA_H200_row_lines_fused_s50.txt): the memory tables (L1 / L2 sectors and requests, DRAM bytes) of each stride.
    python benchmarks/explore/ncu_fused_dtypes.py --rows 8192 --hidden 16384 --dtypes bfloat16 --pads 0 8 64 --out DIR"""
import argparse, subprocess
from pathlib import Path
from flashinfer_nb.profile import ncu_profile, find_ncu, NCU_SECTIONS

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--rows', type=int, default=2048); ap.add_argument('--hidden', type=int, default=2048)
ap.add_argument('--op', default='fused_add_rmsnorm', choices=['fused_add_rmsnorm', 'rmsnorm'])
ap.add_argument('--dtypes', nargs='+', default=['bfloat16', 'float16'])
ap.add_argument('--pads', nargs='+', type=int, default=[0], help='extra elements a row (the stride - hidden); 0: contiguous')
ap.add_argument('--out', type=Path, default=Path('ncu'))
a = ap.parse_args()
a.out.mkdir(parents=True, exist_ok=True)
call = 'fused_add_rmsnorm(x, r, w)' if a.op == 'fused_add_rmsnorm' else 'rmsnorm(x, w, out=o)'
n, d = a.rows, a.hidden
prev = None
for dt in a.dtypes:
    for pad in a.pads:
        setup = (f"import torch\nfrom flashinfer_nb.norm import {a.op}\n"
                 f"bx, br, bo = (torch.randn({n}, {d + pad}, device='cuda', dtype=torch.{dt}) for _ in range(3))\n"
                 f"x, r, o = bx[:, :{d}], br[:, :{d}], bo[:, :{d}]\n"
                 f"w = torch.randn({d}, device='cuda', dtype=torch.{dt})\n{call}\n")
        name = f'{a.op}_{n}x{d}_{dt}' + (f'_pad{pad}' if pad else '')
        res = ncu_profile(call, setup=setup, kernel='RMSNorm', report=a.out/name,
                          sections=NCU_SECTIONS + ('WarpStateStats', 'SchedulerStats', 'ComputeWorkloadAnalysis',
                                                   'MemoryWorkloadAnalysis_Tables'),
                          compare=prev)
        esize = 4 if dt == 'float32' else 2
        print(f'== {a.op} {n}x{d} {dt}, row stride {d + pad} ({(d + pad) * esize % 128} bytes past a line each row)')
        print(res)
        print(subprocess.run([find_ncu(), '--import', str(res.report), '--page', 'details'], capture_output=True,
                             text=True).stdout)
        prev = res.report
