"""Host-side cost per call (µs) of each layer of the scale call path, on a tiny tensor:
10k back-to-back calls, timed on the host with one synchronize at the end."""
import time, torch, flashinfer_nb
from flashinfer_nb.scale import get_scale_module

print('torch has __dlpack_c_exchange_api__:', hasattr(torch.Tensor, '__dlpack_c_exchange_api__'))
x = torch.randn(1024, device='cuda', dtype=torch.float16); out = torch.empty_like(x)
mod = get_scale_module(); fn = mod.scale
paths = {'flashinfer_nb.scale': lambda: flashinfer_nb.scale(x, 0.5, out=out),
         'scale(skip_check=True)': lambda: flashinfer_nb.scale(x, 0.5, out=out, skip_check=True),
         'undecorated body': lambda: flashinfer_nb.scale.__wrapped__(x, 0.5, out=out),
         'module function': lambda: fn(out, x, 0.5),
         'torch.mul(out=)': lambda: torch.mul(x, 0.5, out=out)}
for name, f in paths.items():
    for _ in range(1000): f()
    torch.cuda.synchronize()
    best = []
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(10000): f()
        torch.cuda.synchronize(); best.append((time.perf_counter() - t) / 10000 * 1e6)
    print(f"{name:>24}: {min(best):6.2f} us/call")
