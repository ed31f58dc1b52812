"""fused_add_rmsnorm (or rmsnorm: --op, session 57) on both sides of the pieces kernel's wave bounds (session 56: 2 or 4
chunks a thread by waves, norm_peeled.cuh's pieces_vpt) as a compute-sanitizer memcheck workload. Every tensor is its exact size
(PYTORCH_NO_CUDA_MEMORY_CACHING=1 gives each its own allocation), the views 0-2 elements into it, so a read past a
row's last element or before its first is a read outside the allocation:

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck --print-limit 20 \\
        python3 benchmarks/explore/pieces_waves_memcheck.py --dtype bfloat16 [--op rmsnorm]

Rows at k x the SMs + 1 for the bounds the 132-SM parts have (4-32 x), widths of every class from 1026 to 8191,
cases past --max-elems skipped (the sanitizer's time). Prints one line per case (the kernel that ran is not read
here: tests/test_norm.py checks that), then `calls N`.
"""
import argparse
import torch


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--dtype', default='bfloat16', choices=['bfloat16', 'float16'])
    ap.add_argument('--op', default='fused_add_rmsnorm', choices=['fused_add_rmsnorm', 'rmsnorm'])
    ap.add_argument('--widths', type=int, nargs='+',
                    default=[1026, 1922, 2049, 2050, 2561, 3074, 4097, 4100, 5122, 6145, 8190, 8191])
    ap.add_argument('--mults', type=int, nargs='+', default=[4, 5, 6, 8, 9, 10, 12, 16, 18, 24, 32])
    ap.add_argument('--max-elems', type=int, default=12 << 20)
    a = ap.parse_args()
    from flashinfer_nb.norm import fused_add_rmsnorm, rmsnorm
    dt = getattr(torch, a.dtype)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    calls = 0
    for d in a.widths:
        w = torch.randn(d, device='cuda', dtype=dt)
        for k in a.mults:
            rows = k * sms + 1
            if rows * d > a.max_elems: continue
            for o in (0, 1, 2):
                bx = torch.randn(o + rows * d, device='cuda', dtype=dt)
                x = bx[o:].view(rows, d)
                if a.op == 'rmsnorm':   # out at the input's offset in its own exact-size buffer (the pieces kernel's condition)
                    bo = torch.empty(o + rows * d, device='cuda', dtype=dt)
                    out = bo[o:].view(rows, d)
                    rmsnorm(x, w, 1e-6, out=out)
                    torch.cuda.synchronize()
                    ok = bool(torch.isfinite(out).all()) and torch.equal(x, bx[o:].view(rows, d))
                else:
                    br = torch.randn(o + rows * d, device='cuda', dtype=dt)
                    r = br[o:].view(rows, d)
                    want_r = (x.float() + r.float()).to(dt)
                    fused_add_rmsnorm(x, r, w, 1e-6)
                    torch.cuda.synchronize()
                    ok = torch.equal(r, want_r) and bool(torch.isfinite(x).all())
                calls += 1
                print(f"{rows}x{d} o={o} {'ok' if ok else 'WRONG'}", flush=True)
    print(f"calls {calls}")


if __name__ == '__main__':
    main()
