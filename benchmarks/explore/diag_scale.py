"""Diagnose the library scale kernel: kernel names, grid and device time from the torch profiler,
and bench_gpu_time through each call path (API, skip_check, raw module)."""
import json, tempfile, torch, flashinfer_nb
from flashinfer_nb.scale import get_scale_module
from flashinfer_nb.testing import bench_gpu_time, summarize

x = torch.randn(1 << 28, device='cuda', dtype=torch.float16); out = torch.empty_like(x)
mod = get_scale_module()
for name, fn in [('api', lambda: flashinfer_nb.scale(x, 0.5, out=out)),
                 ('skip_check', lambda: flashinfer_nb.scale(x, 0.5, out=out, skip_check=True)),
                 ('module', lambda: mod.scale(out, x, 0.5)), ('torch.mul', lambda: torch.mul(x, 0.5, out=out))]:
    print(f"{name:>10}: {summarize(bench_gpu_time(fn)).median_us:8.1f} us (cold L2)  "
          f"{summarize(bench_gpu_time(fn, cold_l2_cache=False)).median_us:8.1f} us (warm)")
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    for _ in range(5): mod.scale(out, x, 0.5)
    torch.cuda.synchronize()
f = tempfile.mktemp(suffix='.json'); prof.export_chrome_trace(f)
for e in json.load(open(f))['traceEvents']:
    if e.get('cat') == 'kernel': print(e['name'][:60], e['dur'], 'us', 'grid', e['args'].get('grid'), 'block', e['args'].get('block'))
