"""Kernel-only durations (CUPTI, through torch.profiler) of scale vs torch.mul at small sizes, where
event timing of a whole call is within its own noise. L2 flushed before every call; median of 100."""
import statistics, torch, flashinfer_nb
from torch.profiler import profile, ProfilerActivity

flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device='cuda')
print(torch.cuda.get_device_name())
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    for lg in (20, 21, 22, 23, 24, 26, 28):
        x = torch.randn(1 << lg, device='cuda', dtype=dtype); out = torch.empty_like(x)
        res = {}
        for name, fn in (('scale', lambda: flashinfer_nb.scale(x, 0.5, out=out)), ('torch.mul', lambda: torch.mul(x, 0.5, out=out))):
            for _ in range(10): fn()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                for _ in range(200 if lg < 26 else 50): flush.zero_(); fn()
                torch.cuda.synchronize()
            durs = [e.device_time for e in prof.events() if e.device_type.name == 'CUDA' and 'elementwise_kernel_with_index' not in e.name
                    and ('ScaleKernel' in e.name or ('mul' in e.name.lower() or 'MulFunctor' in e.name))]
            res[name] = statistics.median(durs) if durs else float('nan')
        print(f"{str(dtype):>15} 2^{lg}: scale {res['scale']:6.2f} us  torch.mul {res['torch.mul']:6.2f} us  ratio {res['torch.mul'] / res['scale']:.2f}x")
