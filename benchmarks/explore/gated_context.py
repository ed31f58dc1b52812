"""Issue 19, session 65: is our gated kernel slower than FlashInfer's in its kernel or in its context? Nsight Compute
put the same launch of ours (2338 x 748 fp16 silu: 187 threads a row, one vector each) at 5.34 us inside lib_ab's
binary and 5.89 us from our JIT module, FlashInfer's at 5.50-5.57 either way. Found here (NOTES.md, session 65): where the
buffers sat (each ran on its own output buffer), and at 3000-4600 x 780 / 1004 the launch choice, not the module.
By default both libraries' modules, timed as bench_vs_flashinfer.py times a call (CUDA events around one call after a
256 MB L2 flush; each round's mean of the middle 80 % of n, median of 3 interleaved rounds), with something launched
between the flush and the timed call:
    cold       nothing (the bench's way)
    pre_same   a 1-row call of the same library's same op on other buffers (its module touched after the flush)
    pre_other  a 1-row call of the other library's op (a kernel, not ours, just before)
    pre_torch  a small torch op
and with the two libraries' output buffers swapped (swap): where the buffers sit.
    FLASHINFER_WHEEL_DIR=... python3 benchmarks/explore/gated_context.py [--shapes 2338x748 3000x1004] [--n 40]
With --module-context (--big, --rule): our exact one-block kernel (one 4-element vector a thread, d / 4 threads:
FlashInfer's launch) from a one-function cell module (compile_cell), on a 2-D grid and on a 1-D grid (the row on grid.x,
the kernel's kSlabs form); our op's module at hint 81 (one vector a thread in a block of up to 256: session 65's runs
kept 256 threads, the tested kernel; since session 66 trimmed to the row, the exact one) or by its rule (--rule); with
--big a cell holding every kernel of the launcher for three dtypes, through the launcher at hint 81 and launched
directly; and FlashInfer's. silu fp16, rows of 4-element vectors (d % 8 == 4, d <= 1024), --placements buffer sets.
With --hints H...: instead, our launch choices H (the module's `_hint` entry, 0 = the rule; ACT_HINT_CHOICES) against
FlashInfer's, each case's buffers in --placements sets taken in turn (bench_vs_flashinfer.py's buffer_sets / over_sets).
"""
import argparse, statistics, sys
from pathlib import Path
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import random
from bench_vs_flashinfer import ACTS, gated_pair, summarize, buffer_sets, over_sets

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--act', default='silu', choices=list(ACTS))
ap.add_argument('--shapes', nargs='+', default=['2338x748', '3000x1004', '3000x780', '3000x1024'])
ap.add_argument('--dtype', default='float16', choices=['float16', 'bfloat16'])
ap.add_argument('--n', type=int, default=40)
ap.add_argument('--rounds', type=int, default=3)
ap.add_argument('--hints', type=int, nargs='+')
ap.add_argument('--placements', type=int, default=4)
ap.add_argument('--module-context', action='store_true')
ap.add_argument('--big', action='store_true', help='with --module-context: also the cell holding every kernel of the launcher')
ap.add_argument('--rule', action='store_true', help='with --module-context: our op by its rule rather than hint 81')
a = ap.parse_args()
ours_op, fi_op = gated_pair(a.act)
dt = getattr(torch, a.dtype)
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
print(f'{torch.cuda.get_device_name()}; {a.act}_and_mul {a.dtype}; us, trimmed mean of {a.n}, median of {a.rounds} rounds')


def timed(cases):
    "{name: (pre-call or None, call)} -> {name: median over rounds of each round's trimmed mean of n calls}"
    for p, f in cases.values():
        if p: p()
        f()
    torch.cuda.synchronize()
    per = {k: [] for k in cases}
    for _ in range(a.rounds):
        for k, (p, f) in cases.items():
            ts = []
            for _ in range(a.n):
                flush.zero_()
                if p: p()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record(); f(); e.record(); e.synchronize()
                ts.append(s.elapsed_time(e) * 1e3)
            per[k].append(summarize(ts, 'trimmed'))
    return per


def placed(rows, d, rng):
    "--placements sets of one case's input (rows x 2d) and output (rows x d)"
    return buffer_sets(lambda: (torch.randn(rows, 2 * d, device='cuda', dtype=dt),
                                torch.empty(rows, d, device='cuda', dtype=dt)), a.placements, rng)


def report(shape, per):
    "One shape's lines: each case's median over rounds, FlashInfer's time over it, the rounds"
    fi_t, w = statistics.median(per['fi']), max(map(len, per))
    print(shape)
    for k, v in per.items():
        print(f'  {k:{w}s} {statistics.median(v):7.3f}  FI/this {fi_t / statistics.median(v):.3f}   rounds ' +
              ' '.join(f'{t:.3f}' for t in v))

def compare(make_cases):
    """For each --shapes case: --placements buffer sets, `make_cases(rows, d, case)` -> {name: (None, call)} where
    `case(make)` runs `make(x, o)`'s call on each set in turn; outputs checked alike (same_outputs), then timed."""
    rng = random.Random(0)
    for shape in a.shapes:
        rows, d = map(int, shape.split('x'))
        sets = placed(rows, d, rng)
        cases = make_cases(rows, d, lambda make: (None, over_sets(sets, make)))   # no pre-call
        same_outputs(cases, sets)
        report(shape, timed(cases))


def same_outputs(cases, sets):
    "Every case's output on buffer set 0 (outputs poisoned first; each call takes the next set) matches the first case's"
    outs = []
    for k, (_, f) in cases.items():
        for x, o in sets: o.fill_(float('nan'))
        for _ in sets: f()
        outs.append(sets[0][1].clone())
    for k, got in zip(cases, outs): torch.testing.assert_close(got, outs[0], rtol=1e-2, atol=1e-2, msg=k)

TINY = r"""#include <flashinfer_nb/activation.cuh>
struct Silu { static __device__ float apply(float x) { return x * flashinfer_nb::sigmoid(x); } };
using flashinfer_nb::act_detail::ActAndMulKernel;
extern "C" cudaError_t ours2d(const __half* in, __half* out, int64_t d, int64_t rows, cudaStream_t stream) {
  ActAndMulKernel<__half, Silu, 4, 1, true><<<dim3(1, rows), d / 4, 0, stream>>>(in, 2 * d, out, d, d, rows);
  return cudaGetLastError();
}
extern "C" cudaError_t ours1d(const __half* in, __half* out, int64_t d, int64_t rows, cudaStream_t stream) {
  ActAndMulKernel<__half, Silu, 4, 1, true, false, 256, true><<<rows, d / 4, 0, stream>>>(in, 2 * d, out, d, d, rows);
  return cudaGetLastError();
}
"""

BIG = r"""#include <flashinfer_nb/activation.cuh>
struct Silu { static __device__ float apply(float x) { return x * flashinfer_nb::sigmoid(x); } };
using flashinfer_nb::act_detail::ActAndMulKernel;
// every kernel the op's launcher instantiates, for all three dtypes (a module of the op module's size and content)
extern "C" cudaError_t big_hint(const __half* in, __half* out, int64_t d, int64_t rows, int64_t hint, cudaStream_t stream) {
  return flashinfer_nb::ActAndMulLauncher<__half, Silu>(in, 2 * d, out, d, rows, d, false, hint, stream);
}
extern "C" cudaError_t big_bf16(const __nv_bfloat16* in, __nv_bfloat16* out, int64_t d, int64_t rows, int64_t hint,
                                cudaStream_t stream) {
  return flashinfer_nb::ActAndMulLauncher<__nv_bfloat16, Silu>(in, 2 * d, out, d, rows, d, false, hint, stream);
}
extern "C" cudaError_t big_f32(const float* in, float* out, int64_t d, int64_t rows, int64_t hint, cudaStream_t stream) {
  return flashinfer_nb::ActAndMulLauncher<float, Silu>(in, 2 * d, out, d, rows, d, false, hint, stream);
}
extern "C" cudaError_t big_direct(const __half* in, __half* out, int64_t d, int64_t rows, cudaStream_t stream) {
  ActAndMulKernel<__half, Silu, 4, 1, true><<<dim3(1, rows), d / 4, 0, stream>>>(in, 2 * d, out, d, d, rows);
  return cudaGetLastError();
}
"""

if a.module_context:
    from flashinfer_nb.magics import compile_cell
    from flashinfer_nb.op_jit import get_act_and_mul_module
    if a.act != 'silu' or a.dtype != 'float16': sys.exit('--module-context: silu, float16 only')
    tiny, rep = compile_cell('gated_context_tiny', TINY, progress=False)
    if tiny is None: sys.exit(rep.log)
    if a.big:
        big, rep = compile_cell('gated_context_big', BIG, progress=False)
        if big is None: sys.exit(rep.log)
    hinted = get_act_and_mul_module('silu').silu_and_mul_hint
    for shape in a.shapes:
        d = int(shape.split('x')[1])
        if d % 8 != 4 or d > 1024: sys.exit(f'{shape}: --module-context takes rows of 4-element vectors (d % 8 == 4, d <= 1024)')
    print(f'our exact one-block kernel from three modules against FlashInfer, {a.placements} buffer sets a case taken in turn')
    ours_mod = (lambda x, o: lambda: ours_op(x, out=o, skip_check=True)) if a.rule else \
               (lambda x, o: lambda: hinted(o, x, False, 81))

    def module_cases(rows, d, case):
        cases = {f"ours module ({'rule' if a.rule else 'hint 81'})": case(ours_mod),
                 'cell module, 2-D grid': case(lambda x, o: lambda: tiny.ours2d(x, o, d, rows)),
                 'cell module, 1-D grid': case(lambda x, o: lambda: tiny.ours1d(x, o, d, rows)),
                 'fi': case(lambda x, o: lambda: fi_op(o, x, False))}
        if a.big:
            cases['big cell, hint 81'] = case(lambda x, o: lambda: big.big_hint(x, o, d, rows, 81))
            cases['big cell, direct'] = case(lambda x, o: lambda: big.big_direct(x, o, d, rows))
        return cases
    compare(module_cases)
    sys.exit(0)

if a.hints:
    from flashinfer_nb.op_jit import get_act_and_mul_module
    hinted = getattr(get_act_and_mul_module(a.act), f'{a.act}_and_mul_hint')
    print(f'our launch choices (hints) against FlashInfer, {a.placements} buffer sets a case taken in turn')
    compare(lambda rows, d, case: {
        **{f'ours hint {h}': case(lambda x, o, h=h: lambda: hinted(o, x, False, h) if h else
                                  ours_op(x, out=o, skip_check=True)) for h in a.hints},
        'fi': case(lambda x, o: lambda: fi_op(o, x, False))})
    sys.exit(0)
for shape in a.shapes:
    rows, d = map(int, shape.split('x'))
    x = torch.randn(rows, 2 * d, device='cuda', dtype=dt)
    o1, o2 = (torch.empty(rows, d, device='cuda', dtype=dt) for _ in range(2))
    xs, os1, os2 = torch.randn(1, 2 * d, device='cuda', dtype=dt), *(torch.empty(1, d, device='cuda', dtype=dt) for _ in range(2))
    small = torch.zeros(1024, device='cuda')
    ours = lambda o: (lambda: ours_op(x, out=o, skip_check=True))
    fi = lambda o: (lambda: fi_op(o, x, False))
    pre = {'cold': None, 'pre_ours': lambda: ours_op(xs, out=os1, skip_check=True), 'pre_fi': lambda: fi_op(os2, xs, False),
           'pre_torch': lambda: small.add_(1.0)}
    cases = {}
    for pname, p in pre.items():
        cases[f'ours {pname}'] = (p, ours(o1))
        cases[f'fi   {pname}'] = (p, fi(o2))
    cases['ours cold swap'] = (None, ours(o2))
    cases['fi   cold swap'] = (None, fi(o1))
    per = timed(cases)
    print(f'{shape}')
    for k, v in per.items(): print(f'  {k:18s} {statistics.median(v):7.3f}   rounds ' + ' '.join(f'{t:.3f}' for t in v))
