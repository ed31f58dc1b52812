"""Is any scale launch config reliably at or above torch.mul at 2^20..2^22 elements? (issue 2's small sizes)

scale_small.py timed each config once, in a fixed order, and its ratios moved by +-4 % from run to run:
too noisy to choose between configs 2 % apart. Here every config, torch.mul included twice (the second
copy is the noise control: its ratio to the first should be 1.00), is timed in ROUNDS rounds, in a fresh
random order each round, kernel-only with the project's timer (CUPTI, cold L2, median of the round), and
the ratio torch / config is taken within each round. Printed per config: the median ratio over the rounds
and its min-max (> 1: faster than torch).

    python benchmarks/explore/scale_small_interleaved.py [ROUNDS] [all | sizes=K,K,...]

`all`: only the library's scale against torch.mul (and the control), at every size 2^20..2^28 — the bar.
"""
import random, statistics, sys
from pathlib import Path

import torch
import flashinfer_nb
from flashinfer_nb.jit.core import gen_jit_spec
from flashinfer_nb.testing import bench_gpu_time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
ALL = 'all' in sys.argv[2:]
SIZES = next((tuple(map(int, a[6:].split(','))) for a in sys.argv[2:] if a.startswith('sizes=')), (20, 21, 22))
here = Path(__file__).parent
m = None if ALL else gen_jit_spec('scale_cfg', [here/'scale_cfg.cu']).build_and_load()

def us(fn) -> float:
    t = bench_gpu_time(fn, enable_cupti=True, cold_l2_cache=True, dry_run_time_ms=5, repeat_time_ms=40)
    return statistics.median(t) * 1e3

print(torch.cuda.get_device_name(), f"torch {torch.__version__}; {ROUNDS} rounds, shuffled; ratio = torch / config", flush=True)
rng = random.Random(0)
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    for lg in (range(20, 29) if ALL else SIZES):
        x = torch.randn(1 << lg, device='cuda', dtype=dtype)
        out = torch.empty_like(x)
        cfgs = {'torch': lambda: torch.mul(x, 0.5, out=out), 'torch(control)': lambda: torch.mul(x, 0.5, out=out),
                'library': lambda: flashinfer_nb.scale(x, 0.5, out=out)}
        if not ALL:
            for b, u in ((128, 1), (256, 1), (256, 2), (256, 4), (256, 8), (512, 1), (512, 2)):
                cfgs[f'{b}x{u}'] = lambda b=b, u=u: m.scale_cfg(out, x, 0.5, b, u)
            for code, u in ((0, 1), (1, 4), (2, 8)):
                cfgs[f'L2hint x{u}'] = lambda code=code, u=u: m.scale_cfg(out, x, 0.5, code, u)
        ratios = {k: [] for k in cfgs if k != 'torch'}
        torch_us = []
        for _ in range(ROUNDS):
            order = list(cfgs)
            rng.shuffle(order)
            t = {k: us(cfgs[k]) for k in order}
            torch_us.append(t['torch'])
            for k in ratios: ratios[k].append(t['torch'] / t[k])
        cells = [f"{k} {statistics.median(r):.3f} [{min(r):.3f}-{max(r):.3f}]" for k, r in ratios.items()]
        print(f"{str(dtype)[6:]} 2^{lg}: torch {statistics.median(torch_us):.2f} us | " + ' | '.join(cells), flush=True)
