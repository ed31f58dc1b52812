"""Session 47: where the two-level rows kernel (norm_heads.cuh) spends its time at decode, against the one-level kernels
and FlashInfer's per-head kernel. Four calls a shape, timed as bench_vs_flashinfer times them (CUDA events around one
call, 256 MB L2 flush before each, trimmed mean of n, median of interleaved rounds):
  one-level:        contiguous (batch, heads, d) in and out (the packed-group kernels of norm.cuh)
  heads, reads 1:   contiguous input, a two-level output (the heads kernel reading contiguous rows)
  heads, strided:   the query slice of a (batch, 3 heads, d) buffer in, contiguous out (the heads kernel)
  FI strided:       FlashInfer's rmsnorm on the same slice (QKRMSNorm)
The first two differ only in the kernel; the second and third only in where the rows lie.

    FLASHINFER_WHEEL_DIR=... python benchmarks/explore/heads_decode.py [--out FILE]
"""
import argparse, os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, compare, time_one
from flashinfer_nb.norm import rmsnorm

SHAPES = [(2, 32, 128), (8, 32, 128), (32, 32, 128), (8, 8, 128), (32, 8, 128), (8, 16, 256), (32, 16, 256),
          (256, 32, 128), (2048, 16, 256)]

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', type=Path); ap.add_argument('--n', type=int, default=20); ap.add_argument('--rounds', type=int, default=5)
    a = ap.parse_args()
    fi_norm, _ = fi_modules(Path(os.environ.get('FLASHINFER_WHEEL_DIR', '')), ())
    flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
    cases = []
    for dt in (torch.bfloat16, torch.float16):
        for b, h, d in SHAPES:
            w = torch.randn(d, device='cuda', dtype=dt)
            xc = torch.randn(b, h, d, device='cuda', dtype=dt); oc = torch.empty_like(xc)
            xs = torch.randn(b, 3 * h, d, device='cuda', dtype=dt)[:, :h]
            o2 = torch.empty(b, h + 1, d, device='cuda', dtype=dt)[:, :h]
            f = lambda x, o, w=w: (lambda: rmsnorm(x, w, 1e-6, out=o, enable_pdl=False, skip_check=True))
            fns = {'one-level': f(xc, oc), 'heads reads 1': f(xc, o2), 'heads strided': f(xs, oc),
                   'FI strided': lambda xs=xs, oc=oc, w=w: fi_norm.rmsnorm(oc, xs, w, 1e-6, False)}
            cases.append((f"{b}x{h}x{d} {str(dt)[6:]}", fns))
    res = compare(cases, flush, a.n, a.rounds, timer=lambda fn, fl, n: time_one(fn, fl, n, 'trimmed'))
    keys = list(cases[0][1])
    lines = [f"{torch.cuda.get_device_name()}: us per call (trimmed mean of {a.n}, median of {a.rounds} rounds, L2 flushed)",
             f"{'case':<22}" + ''.join(f"{k:>15}" for k in keys)]
    lines += [f"{label:<22}" + ''.join(f"{t[k]:15.2f}" for k in keys) for label, t in res]
    print('\n'.join(lines))
    if a.out: a.out.write_text('\n'.join(lines) + '\n')

if __name__ == '__main__':
    main()
