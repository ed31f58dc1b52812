#!/usr/bin/env python3
"""Time flashinfer_nb.scale against torch.mul and a device-to-device copy, in one run.

Every figure is a median of CUDA-event timings after a warm-up, with L2 flushed before each call
(flashinfer_nb.testing.bench_gpu_time). Bytes counted: n elements read + n written.

    python benchmarks/bench_scale.py [--log2-sizes 20 22 24 26 28] [--dtypes float16 bfloat16 float32] [--csv out.csv]
"""
import argparse, csv, sys

import torch

import flashinfer_nb
from flashinfer_nb.testing import bench_gpu_time, copy_bandwidth, summarize


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--log2-sizes', type=int, nargs='+', default=[20, 22, 24, 26, 28])
    ap.add_argument('--dtypes', nargs='+', default=['float16', 'bfloat16', 'float32'])
    ap.add_argument('--csv', help='append result rows to this CSV file')
    args = ap.parse_args(argv)
    if not torch.cuda.is_available():
        sys.exit('bench_scale needs a CUDA GPU')
    gpu = torch.cuda.get_device_name()
    ceiling = copy_bandwidth(1 << 30)
    print(f"{gpu}; torch {torch.__version__}, CUDA {torch.version.cuda}; timer: CUDA events, cold L2, median")
    print(f"copy ceiling (1 GiB device-to-device, read+write): {ceiling:.2f} TB/s\n")
    hdr = f"{'dtype':>9} {'n':>6} | {'scale us':>9} {'TB/s':>5} {'%ceil':>6} | {'torch us':>9} {'TB/s':>5} | {'copy us':>8} | {'vs torch':>8} {'vs copy':>7}"
    print(hdr); print('-' * len(hdr))
    rows = []
    for dname in args.dtypes:
        dtype = getattr(torch, dname)
        for lg in args.log2_sizes:
            n = 1 << lg
            x = torch.randn(n, device='cuda', dtype=dtype)
            out = torch.empty_like(x)
            nbytes = 2 * n * x.element_size()
            fi = summarize(bench_gpu_time(flashinfer_nb.scale, (x, 0.5), dict(out=out)))
            th = summarize(bench_gpu_time(torch.mul, (x, 0.5), dict(out=out)))
            cp = summarize(bench_gpu_time(out.copy_, (x,)))
            assert torch.equal(flashinfer_nb.scale(x, 0.5), x * 0.5)
            r = dict(gpu=gpu, dtype=dname, n=n, scale_us=fi.median_us, scale_tbps=fi.tbps(nbytes),
                     scale_p10_us=fi.p10_ms * 1e3, scale_p90_us=fi.p90_ms * 1e3, torch_us=th.median_us,
                     torch_tbps=th.tbps(nbytes), copy_us=cp.median_us, ceiling_tbps=ceiling,
                     pct_ceiling=100 * fi.tbps(nbytes) / ceiling, speedup_vs_torch=th.median_ms / fi.median_ms,
                     ratio_vs_copy=cp.median_ms / fi.median_ms, torch_version=torch.__version__,
                     cuda=torch.version.cuda, timer='cuda_events')
            rows.append(r)
            print(f"{dname:>9} 2^{lg:<4} | {r['scale_us']:9.1f} {r['scale_tbps']:5.2f} {r['pct_ceiling']:5.1f}% | "
                  f"{r['torch_us']:9.1f} {r['torch_tbps']:5.2f} | {r['copy_us']:8.1f} | "
                  f"{r['speedup_vs_torch']:7.2f}x {r['ratio_vs_copy']:6.2f}x")
            del x, out
    if args.csv:
        new = not __import__('os').path.exists(args.csv)
        with open(args.csv, 'a', newline='') as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            if new: w.writeheader()
            w.writerows(rows)
    return rows


if __name__ == '__main__':
    main()
