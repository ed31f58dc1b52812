"""Session 69: the fused op's exact-fit rows at decode (16-bit d a multiple of 512 from 4096; 3584 as the control that
keeps one vector a thread), which take 4 vectors a thread from 1.5 x the SMs, as a compute-sanitizer memcheck workload
through tests/test_norm.py's guarded check (poisoned guard columns and row, the residual bit for bit), without its
profiler. Rows on both sides of 1.5 x the SMs, 7/4 x and 2 x (the last decode row count):

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck --print-limit 20 \\
        python3 benchmarks/explore/fused_exact_memcheck.py
"""
import sys
from pathlib import Path
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.test_norm import _check_fused_in_guards

sms = torch.cuda.get_device_properties(0).multi_processor_count
n = 0
for dt in (torch.bfloat16, torch.float16):
    for d in (3584, 4096, 4608, 5120, 6144, 7168, 7680):
        w = torch.randn(d, device='cuda', dtype=dt)
        for rows in (-(-3 * sms // 2) - 1, -(-3 * sms // 2), 7 * sms // 4, 2 * sms):
            x, r = torch.randn(rows, d, device='cuda', dtype=dt), torch.randn(rows, d, device='cuda', dtype=dt)
            _check_fused_in_guards(w, x, r, 8); n += 1
torch.cuda.synchronize()
print('fused exact', n, 'shapes checked')
