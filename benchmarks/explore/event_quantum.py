"""How CUDA-event times of a decode-sized launch are distributed (issue 19, session 35).

bench_vs_flashinfer.py reports the median of single launches timed with CUDA events (an L2 flush before each). At
decode sizes (4-6 us a launch) those medians fell on a few values, spaced 0.16-0.22 us apart, in every table; a
ratio of two such medians moves in steps of ~4 %. This script times a few decode cases, ours and FlashInfer's and
an empty kernel, interleaved (one launch of each in turn), and prints for each: the median, the 10 %-trimmed mean,
and the most frequent values with their counts, so the steps can be seen and the two statistics compared.

  FLASHINFER_WHEEL_DIR=... python benchmarks/explore/event_quantum.py [--n 2000] [--out FILE]
"""
import argparse, collections, os, sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_vs_flashinfer as B  # noqa: E402
from flashinfer_nb.norm import rmsnorm, fused_add_rmsnorm  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--n', type=int, default=2000)
    ap.add_argument('--out', type=Path)
    a = ap.parse_args()
    fi_norm, _ = B.fi_modules(Path(os.environ.get('FLASHINFER_WHEEL_DIR', '')), acts=())
    from flashinfer_nb.magics import compile_cell
    copy_mod, rep = compile_cell('bench_copy2', B.COPY_CELL, progress=False)
    if copy_mod is None: sys.exit(rep.log)
    flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
    dummy = torch.empty(1, device='cuda')
    fns = {'empty kernel': lambda: copy_mod.empty(dummy)}
    for op, rows, h, dt in (('rmsnorm', 256, 1536, torch.bfloat16), ('rmsnorm', 256, 2880, torch.float16),
                            ('fused_add_rmsnorm', 200, 1540, torch.float16)):
        x = torch.randn(rows, h, device='cuda', dtype=dt); w = torch.randn(h, device='cuda', dtype=dt)
        o, r = torch.empty_like(x), torch.randn_like(x)
        tag = f"{op} {rows}x{h} {str(dt)[6:]}"
        if op == 'rmsnorm':
            fns[f"{tag} ours"] = lambda x=x, w=w, o=o: rmsnorm(x, w, 1e-6, out=o, skip_check=True)
            fns[f"{tag} FI"] = lambda x=x, w=w, o=o: fi_norm.rmsnorm(o, x, w, 1e-6, False)
        else:
            fns[f"{tag} ours"] = lambda x=x, r=r, w=w: fused_add_rmsnorm(x, r, w, 1e-6, skip_check=True)
            fns[f"{tag} FI"] = lambda x=x, r=r, w=w: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)
    ts = {k: [] for k in fns}
    for fn in fns.values(): fn()
    torch.cuda.synchronize()
    for _ in range(a.n):
        for k, fn in fns.items():
            flush.zero_()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); fn(); e.record(); e.synchronize()
            ts[k].append(s.elapsed_time(e) * 1e3)
    lines = [f"{torch.cuda.get_device_name()}; CUDA events around one launch, 256 MB L2 flush before each, {a.n} launches "
             "each, interleaved; modes: the most frequent values (rounded to 0.01 us) with their counts"]
    stats = {}
    for k, v in ts.items():
        med, tm = B.summarize(v), B.summarize(v, 'trimmed')
        stats[k] = (med, tm)
        modes = collections.Counter(round(t, 2) for t in v).most_common(6)
        lines.append(f"{k:<36} median {med:6.3f}  trimmed mean {tm:6.3f}  modes "
                     + ', '.join(f"{m:.2f} x{c}" for m, c in sorted(modes)))
    lines.append('FI / ours by median and by trimmed mean:')
    for k in ts:
        if k.endswith(' ours'):
            base = k[:-5]
            (mo, to), (mf, tf) = stats[k], stats[base + ' FI']
            lines.append(f"  {base:<32} median {mf / mo:.3f}  trimmed mean {tf / to:.3f}")
    print('\n'.join(lines))
    if a.out: a.out.write_text('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
