"""silu_and_mul at 7687 x d fp16, three calls: the workload for Nsight Compute (session 40, odd widths):
    ncu --section SpeedOfLight --section WarpStateStats --section InstructionStats -k regex:ActAndMul \\
        --launch-skip 2 --launch-count 1 python3 benchmarks/explore/prof_odd_gated.py 1425"""
import sys, torch
from flashinfer_nb.activation import silu_and_mul
rows, d = 7687, int(sys.argv[1])
x = torch.randn(rows, 2 * d, device='cuda', dtype=torch.float16); o = torch.empty(rows, d, device='cuda', dtype=torch.float16)
for _ in range(3): silu_and_mul(x, out=o)
torch.cuda.synchronize()
