"""Session 47: should one-level rows of 1-32 vectors (rmsnorm, 16-bit, 64-256 wide) take the two-level rows kernel
(norm_heads.cuh) instead of norm.cuh's packed groups? The heads kernel is reached here by a two-level destination
(contiguous input, output rows in groups of 8 with a spare row between groups), the same kernel a routed call would run.
Timed as bench_vs_flashinfer times (CUDA events around one call, 256 MB L2 flush before each, trimmed mean of n, median
of interleaved rounds), with FlashInfer's rmsnorm on the same rows.

    FLASHINFER_WHEEL_DIR=... python benchmarks/explore/narrow_heads_route.py [--out FILE]
"""
import argparse, os, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import fi_modules, compare, time_one
from flashinfer_nb.norm import rmsnorm

WIDTHS = [64, 128, 200, 256]
ROWS = [16, 32, 128, 264, 528, 1056, 2048, 8192, 32768, 131072]

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--out', type=Path); ap.add_argument('--n', type=int, default=20); ap.add_argument('--rounds', type=int, default=3)
    a = ap.parse_args()
    fi_norm, _ = fi_modules(Path(os.environ.get('FLASHINFER_WHEEL_DIR', '')), ())
    flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
    cases = []
    for dt in (torch.bfloat16, torch.float16):
        for d in WIDTHS:
            w = torch.randn(d, device='cuda', dtype=dt)
            for r in ROWS:
                x = torch.randn(r, d, device='cuda', dtype=dt); o = torch.empty_like(x)
                o2 = torch.empty(r // 8, 9, d, device='cuda', dtype=dt)[:, :8]
                x3 = x.view(r // 8, 8, d)
                cases.append((f"{r}x{d} {str(dt)[6:]}", {
                    'packed': lambda x=x, o=o, w=w: rmsnorm(x, w, 1e-6, out=o, enable_pdl=False, skip_check=True),
                    'heads': lambda x3=x3, o2=o2, w=w: rmsnorm(x3, w, 1e-6, out=o2, enable_pdl=False, skip_check=True),
                    'FI': lambda x=x, o=o, w=w: fi_norm.rmsnorm(o, x, w, 1e-6, False)}))
    res = compare(cases, flush, a.n, a.rounds, timer=lambda fn, fl, n: time_one(fn, fl, n, 'trimmed'))
    lines = [f"{torch.cuda.get_device_name()}: us per call (trimmed mean of {a.n}, median of {a.rounds} rounds, L2 flushed); "
             "packed/heads > 1: the heads kernel faster",
             f"{'case':<22}{'packed':>9}{'heads':>9}{'FI':>9}{'packed/heads':>14}{'FI/heads':>10}{'FI/packed':>10}"]
    lines += [f"{label:<22}{t['packed']:9.2f}{t['heads']:9.2f}{t['FI']:9.2f}{t['packed'] / t['heads']:14.3f}"
              f"{t['FI'] / t['heads']:10.3f}{t['FI'] / t['packed']:10.3f}" for label, t in res]
    print('\n'.join(lines))
    if a.out: a.out.write_text('\n'.join(lines) + '\n')

if __name__ == '__main__':
    main()
