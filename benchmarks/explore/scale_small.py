"""Kernel-only time (CUPTI via torch.profiler, cold L2, median of 200) of scale launch configs
(block size x vectors per thread) vs torch.mul at 2^20..2^23 elements: which config closes the
small-size gap (NOTES.md). Prints each config's ratio to torch (> 1: faster than torch)."""
import statistics, torch, flashinfer_nb
from pathlib import Path
from torch.profiler import profile, ProfilerActivity
from flashinfer_nb.jit.core import gen_jit_spec
from flashinfer_nb.jit.env import CSRC_DIR

here = Path(__file__).parent
m = gen_jit_spec('scale_cfg', [here/'scale_cfg.cu']).build_and_load()
flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device='cuda')

def kernel_us(fn, n=200):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n): flush.zero_(); fn()
        torch.cuda.synchronize()
    d = [e.device_time for e in prof.events() if e.device_type.name == 'CUDA' and 'fill' not in e.name.lower() and 'Fill' not in e.name]
    return statistics.median(d)

print(torch.cuda.get_device_name())
for dtype in (torch.float32, torch.float16):
    for lg in (20, 21, 22, 23):
        x = torch.randn(1 << lg, device='cuda', dtype=dtype); out = torch.empty_like(x)
        res = {'torch.mul': kernel_us(lambda: torch.mul(x, 0.5, out=out)), 'library': kernel_us(lambda: flashinfer_nb.scale(x, 0.5, out=out))}
        for b in (128, 256):
            for u in (1, 4, 8):
                res[f'{b}x{u}'] = kernel_us(lambda b=b, u=u: m.scale_cfg(out, x, 0.5, b, u))
        for tag, code, u in (('L2hint x1', 0, 1), ('L2hint x4', 1, 4), ('L2hint x8', 2, 8)):
            res[tag] = kernel_us(lambda code=code, u=u: m.scale_cfg(out, x, 0.5, code, u))
        res['torch.mul(again)'] = kernel_us(lambda: torch.mul(x, 0.5, out=out))
        t = res['torch.mul']
        print(f"{str(dtype)[6:]} 2^{lg}: torch {t:.2f} us; " + ' '.join(f"{k}:{t / v:.3f}" for k, v in res.items() if k != 'torch.mul'), flush=True)
