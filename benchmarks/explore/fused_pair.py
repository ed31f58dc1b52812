"""Issue 19, session 35: ours and FlashInfer 0.7.2's fused_add_rmsnorm (bf16), each launched twice (both profiled),
for profiling both in one process under Nsight Compute. FLASHINFER_WHEEL_DIR as in bench_vs_flashinfer.py.
    ncu --clock-control none --kernel-name regex:RMSNorm --metrics gpu__time_duration.sum,dram__bytes_read.sum \\
        python benchmarks/explore/fused_pair.py 16384 15360
(NVIDIA_H200_ncu_fused_wide_clocks_s35.txt)"""
import os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules  # noqa: E402
from flashinfer_nb.norm import fused_add_rmsnorm  # noqa: E402

fi, _ = fi_modules(Path(os.environ['FLASHINFER_WHEEL_DIR']), acts=())
rows, d = int(sys.argv[1]), int(sys.argv[2])
x = torch.randn(rows, d, device='cuda', dtype=torch.bfloat16); r = torch.randn_like(x)
w = torch.randn(d, device='cuda', dtype=torch.bfloat16)
for _ in range(2):
    fused_add_rmsnorm(x, r, w, 1e-6, skip_check=True)
    fi.fused_add_rmsnorm(x, r, w, 1e-6, False)
torch.cuda.synchronize()
