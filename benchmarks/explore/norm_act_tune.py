"""Tune and measure the norm and gated-activation kernels against torch, one process, one GPU.

Two timers per point: whole-call CUDA events (flashinfer_nb.testing.bench_gpu_time, cold L2, median)
and kernel-only device time from CUPTI through torch.profiler (sum of the op's kernels per call,
L2 flushed before each call, median of 50). Block-kernel configs (vectors per thread) are forced
through the module's vpt_hint argument. Output: a text table on stdout.

    python benchmarks/explore/norm_act_tune.py [--quick]
"""
import statistics, sys, torch
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
import flashinfer_nb
from flashinfer_nb.norm import get_norm_module
from flashinfer_nb.testing import bench_gpu_time, copy_bandwidth, summarize

flush = torch.empty(2 * torch.cuda.get_device_properties(0).L2_cache_size, dtype=torch.uint8, device='cuda')

def kernel_us(fn, n=50):
    "Median per-call device time of the kernels `fn` launches (CUPTI via torch.profiler), cold L2."
    for _ in range(5): fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n):
            flush.zero_(); torch.cuda.synchronize(); fn(); torch.cuda.synchronize()
    evs = sorted((e for e in prof.events() if e.device_type.name == 'CUDA' and 'fill' not in e.name.lower()
                  and 'Fill' not in e.name), key=lambda e: e.time_range.start)
    per = len(evs) // n
    if per == 0: return float('nan')
    return statistics.median(sum(e.device_time for e in evs[i * per:(i + 1) * per]) for i in range(n))

def event_us(fn): return summarize(bench_gpu_time(fn)).median_us

def row(label, nbytes, fns, ceiling):
    out = []
    for name, fn in fns:
        k, e = kernel_us(fn), event_us(fn)
        out.append((name, k, e))
    base = dict((n, k) for n, k, _ in out).get('torch')
    print(f"{label}")
    for name, k, e in out:
        sp = f"{base / k:5.2f}x" if base and name != 'torch' else '      '
        print(f"   {name:>14}: kernel {k:8.2f} us {nbytes / k / 1e6:5.2f} TB/s {100 * nbytes / k / 1e6 / ceiling:5.1f}% | events {e:8.2f} us | vs torch {sp}")
    sys.stdout.flush()

quick = '--quick' in sys.argv
print(torch.cuda.get_device_name(), 'torch', torch.__version__, 'cuda', torch.version.cuda)
ceiling = copy_bandwidth(1 << 30)
print(f"copy ceiling {ceiling:.3f} TB/s")
m = get_norm_module()

shapes = [(8192, 4096), (16384, 8192), (1, 4096), (32, 4096), (8192, 2880), (8192, 5120), (8192, 7168), (8192, 12288),
          (4096, 16384), (8192, 64), (8192, 1024)]
if quick: shapes = shapes[:4]
for dtype in (torch.bfloat16, torch.float16):
    for rows, d in shapes:
        x = torch.randn(rows, d, device='cuda', dtype=dtype); w = torch.randn(d, device='cuda', dtype=dtype)
        out = torch.empty_like(x)
        nbytes = 2 * x.numel() * x.element_size()
        fns = [('torch', lambda: F.rms_norm(x, (d,), w, 1e-6)),
               ('fi_nb auto', lambda: m.rmsnorm(out, x, w, 1e-6, 0.0, 0, False)),
               ('api', lambda: flashinfer_nb.rmsnorm(x, w, out=out))]
        if d >= 1024 and rows > 32:
            fns += [(f'vpt={v}', (lambda v=v: m.rmsnorm(out, x, w, 1e-6, 0.0, v, False))) for v in (2, 4, 8)]
        row(f"rmsnorm {str(dtype)[6:]} {rows}x{d}", nbytes, fns, ceiling)
        ref = F.rms_norm(x.float(), (d,), w.float(), 1e-6)
        flashinfer_nb.rmsnorm(x, w, out=out)
        print(f"   max abs err vs fp32 torch: {(out.float() - ref).abs().max().item():.3e}")
        del x, w, out

for dtype in (torch.bfloat16, torch.float16):
    for rows, d in [(8192, 4096), (16384, 8192), (8192, 2880), (8192, 7168)]:
        x = torch.randn(rows, d, device='cuda', dtype=dtype); r = torch.randn_like(x); w = torch.randn(d, device='cuda', dtype=dtype)
        nbytes = 4 * x.numel() * x.element_size()
        def torch_fused():
            r.add_(x); return F.rms_norm(r, (d,), w, 1e-6)
        fns = [('torch', torch_fused), ('fi_nb auto', lambda: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, 0, False))]
        fns += [(f'vpt={v}', (lambda v=v: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, v, False))) for v in (2, 4, 8)]
        row(f"fused_add_rmsnorm {str(dtype)[6:]} {rows}x{d} (4 passes)", nbytes, fns, ceiling)
        del x, r, w

from flashinfer_nb.activation import gen_act_and_mul_module
gelu_erfc = gen_act_and_mul_module('gelu_erfc', 'return 0.5f * x * erfcf(-x * 0.70710678118654752f);').build_and_load()
for rows, d2 in [(8192, 28672), (1, 28672), (32, 28672), (4096, 8192)]:
    x = torch.randn(rows, d2, device='cuda', dtype=torch.bfloat16); d = d2 // 2
    out = torch.empty(rows, d, device='cuda', dtype=torch.bfloat16)
    nbytes = 3 * rows * d * 2
    fns = [('torch', lambda: F.silu(x[:, :d]) * x[:, d:]), ('silu_and_mul', lambda: flashinfer_nb.silu_and_mul(x, out=out)),
           ('gelu_and_mul', lambda: flashinfer_nb.gelu_and_mul(x, out=out)), ('gelu_tanh', lambda: flashinfer_nb.gelu_tanh_and_mul(x, out=out)),
           ('gelu via erfcf', lambda: gelu_erfc.gelu_erfc_and_mul(out, x, False))]
    row(f"act_and_mul bf16 {rows}x{d2}", nbytes, fns, ceiling)
    del x, out
