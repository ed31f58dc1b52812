"""The launch-rule sweeps of tests/test_norm.py and tests/test_activation.py, as a compute-sanitizer workload
(their shapes from flashinfer_nb.op_cases.launch_sweep_shapes, the one list both read).

The pytest sweeps poison each output's guard columns and row and check them: they catch a stray *write* inside the
allocation. memcheck catches what they cannot: a *read* past the end of a tensor. So this runs the same widths and
row counts with every tensor its exact size (PYTORCH_NO_CUDA_MEMORY_CACHING=1 gives each its own allocation, so the
sanitizer sees every bound) and nothing but our kernels between the markers. A width range per call keeps one
sanitizer run under the device's 10-minute limit:

    PYTORCH_NO_CUDA_MEMORY_CACHING=1 compute-sanitizer --tool memcheck \\
        python3 benchmarks/explore/launch_sweep_memcheck.py norm --lo 1 --hi 3000 --dtypes bfloat16 float32

Each (op, dtype) prints `@@ begin` / `@@ end N` markers, so flashinfer_nb.op_cases.parse_sanitizer_log reads the log
(`--parse LOG` prints the per-op table).
"""
import argparse, sys, time
import torch


def run(op, dtypes, lo, hi):
    from flashinfer_nb.norm import rmsnorm, fused_add_rmsnorm
    from flashinfer_nb.activation import silu_and_mul, gelu_and_mul
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    ops = ({'rmsnorm': lambda x, r, w: rmsnorm(x, w, 1e-6, out=torch.empty_like(x)),
            'fused_add_rmsnorm': lambda x, r, w: fused_add_rmsnorm(x, r, w, 1e-6)} if op == 'norm' else
           {'silu_and_mul': lambda x, r, w: silu_and_mul(x, out=torch.empty(*x.shape[:-1], x.shape[-1] // 2,
                                                                         device='cuda', dtype=x.dtype)),
            'gelu_and_mul': lambda x, r, w: gelu_and_mul(x)})
    from flashinfer_nb.op_cases import launch_sweep_shapes   # the tests' lists (nbs/96_op_cases.ipynb)
    shapes = launch_sweep_shapes(op, sms, lo, hi)
    for dtype in dtypes:
        dt = getattr(torch, dtype)
        for name, fn in ops.items():
            x, r = (torch.randn(2, 16, device='cuda', dtype=dt) for _ in range(2))
            fn(x, r, torch.randn(16, device='cuda', dtype=dt))   # loads the module before the markers
            torch.cuda.synchronize()
            print(f'@@ begin {name}:{dtype}', flush=True)
            n, t0 = 0, time.time()
            w = None
            for rows, d in shapes:
                cols = 2 * d if op == 'gated' else d
                if w is None or w.numel() != d: w = torch.randn(d, device='cuda', dtype=dt)
                x = torch.randn(rows, cols, device='cuda', dtype=dt)
                r = torch.randn(rows, cols, device='cuda', dtype=dt) if op == 'norm' else None
                fn(x, r, w); n += 1
            torch.cuda.synchronize()
            print(f'@@ end {name}:{dtype} {n}', flush=True)
            print(f'# {name} {dtype} widths {lo}-{hi}: {n} calls, {time.time() - t0:.0f} s', file=sys.stderr, flush=True)


def report(log_path):
    from flashinfer_nb.op_cases import parse_sanitizer_log
    p = parse_sanitizer_log(open(log_path).read())
    for name, row in p['ops'].items():
        state = 'did not finish' if row['launches'] is None else f"{row['launches']} calls"
        print(f"{name:<28} errors={row['errors']:<4} {state} {row['first']}")
    print('tool summary:', p['summary'], 'errors')
    return all(r['errors'] == 0 and r['launches'] is not None for r in p['ops'].values()) and not p['summary']


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('op', choices=['norm', 'gated'], nargs='?')
    ap.add_argument('--lo', type=int, default=1)
    ap.add_argument('--hi', type=int, default=10000)
    ap.add_argument('--dtypes', nargs='+', default=['float16', 'bfloat16', 'float32'])
    ap.add_argument('--parse', metavar='LOG', help='print the per-op table of a sanitizer log; exit 1 on any error')
    a = ap.parse_args()
    if a.parse: sys.exit(0 if report(a.parse) else 1)
    if not a.op: ap.error('name an op family (norm or gated) or --parse LOG')
    run(a.op, a.dtypes, a.lo, a.hi)
