"""Issue 19, session 50: why do the fused op's rows that do not start on 128-byte lines run at ~95 % of the copy on the
H200 (rows on lines: 96-99 %)? Same width, only the row stride changed: x and the residual as views of wider buffers, so
a row starts 0, 16, 32 or 64 bytes off a line (the stride's remainder), against the first pad's rows (0: contiguous) of
the same width. rmsnorm alongside (it writes a separate output, not in place). The rule's own
launch (no hint), timed like bench_vs_flashinfer.py (CUDA events around one call, 256 MB L2 flush before each, trimmed
mean of --n, median of --rounds interleaved rounds); the fused op's outputs at every stride checked against the first's.
    python benchmarks/explore/row_lines_fused.py --rows 8192 --widths 8192 10240 16384 --pads 0 8 16 32 64"""
import argparse, statistics, sys
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_vs_flashinfer import time_one
from flashinfer_nb.norm import fused_add_rmsnorm, rmsnorm

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument('--rows', nargs='+', type=int, default=[8192])
ap.add_argument('--widths', nargs='+', type=int, default=[8192, 10240, 16384])
ap.add_argument('--pads', nargs='+', type=int, default=[0, 8, 16, 32, 64], help='extra elements a row (the stride - width)')
ap.add_argument('--dtype', default='bfloat16')
ap.add_argument('--n', type=int, default=20); ap.add_argument('--rounds', type=int, default=3)
a = ap.parse_args()
dt = getattr(torch, a.dtype)
flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
print(torch.cuda.get_device_name(), f'| {a.dtype}, trimmed mean us of {a.n}, median of {a.rounds} rounds, L2 flushed;',
      'pad: elements between rows (0 = contiguous); off: bytes a row starts past a 128-byte line (every row, or the range)')
for rows in a.rows:
    for d in a.widths:
        w = torch.randn(d, device='cuda', dtype=dt)
        x0, r0 = torch.randn(rows, d, device='cuda', dtype=dt), torch.randn(rows, d, device='cuda', dtype=dt)
        fns, views = {}, {}
        for pad in a.pads:
            bx = torch.empty(rows, d + pad, device='cuda', dtype=dt); br = torch.empty_like(bx)
            bo = torch.empty_like(bx)
            x, r, o = bx[:, :d], br[:, :d], bo[:, :d]
            x.copy_(x0); r.copy_(r0)
            views[pad] = (x, r, o)
            fns[f'fused+{pad}'] = lambda x=x, r=r: fused_add_rmsnorm(x, r, w, 1e-6)
            fns[f'rms+{pad}'] = lambda x=x, o=o: rmsnorm(x, w, 1e-6, out=o)
        per = {k: [] for k in fns}
        for _ in range(a.rounds):
            for k, f in fns.items(): per[k].append(time_one(f, flush, a.n, 'trimmed'))
        # the same bits whatever the stride: one call each on fresh copies
        outs = {}
        for pad, (x, r, o) in views.items():
            x.copy_(x0); r.copy_(r0); fused_add_rmsnorm(x, r, w, 1e-6); outs[pad] = (x.clone(), r.clone())
        same = all(torch.equal(outs[p][0], outs[a.pads[0]][0]) and torch.equal(outs[p][1], outs[a.pads[0]][1]) for p in outs)
        esz = torch.finfo(dt).bits // 8
        offs = {p: sorted({(i * (d + p) * esz) % 128 for i in range(min(rows, 64))}) for p in a.pads}
        base = {op: statistics.median(per[f'{op}+{a.pads[0]}']) for op in ('fused', 'rms')}
        for pad in a.pads:
            o = offs[pad]
            off = str(o[0]) if len(o) == 1 else f'{o[0]}..{o[-1]} ({len(o)} offsets)'
            tf, tr = statistics.median(per[f'fused+{pad}']), statistics.median(per[f'rms+{pad}'])
            print(f'{rows}x{d} pad {pad:3d} off {off:>22}: fused {tf:8.2f} us ({100 * (tf / base["fused"] - 1):+5.1f} %)'
                  f'   rmsnorm {tr:8.2f} us ({100 * (tr / base["rms"] - 1):+5.1f} %)', flush=True)
        print(f'{rows}x{d}: fused outputs the same at every stride: {same}')
