#!/usr/bin/env python3
"""Measure the JIT's start-up costs, each in a fresh process:

- cold compile of the scale module into an empty workspace,
- `import flashinfer_nb` on top of `import torch` (median of 7),
- the first `scale` call with a warm cache (module load included, no ninja/nvcc), and the second.

    python benchmarks/bench_jit_startup.py
"""
import json, os, statistics, subprocess, sys, tempfile

IMPORT = r'''
import time; t0 = time.perf_counter(); import torch; t1 = time.perf_counter()
import flashinfer_nb; t2 = time.perf_counter()
print(t1 - t0, t2 - t1)'''
COLD = r'''
import time, flashinfer_nb
from flashinfer_nb.scale import gen_scale_module
t = time.perf_counter(); gen_scale_module().build(); print(time.perf_counter() - t)'''
FIRST_CALL = r'''
import time, torch, flashinfer_nb
x = torch.randn(1 << 20, device='cuda'); torch.cuda.synchronize()
t = time.perf_counter(); flashinfer_nb.scale(x, 2.0); torch.cuda.synchronize(); first = time.perf_counter() - t
t = time.perf_counter(); flashinfer_nb.scale(x, 2.0); torch.cuda.synchronize(); second = time.perf_counter() - t
print(first, second)'''


def run(code, env):
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)
    if out.returncode: sys.exit(out.stderr)
    return [float(v) for v in out.stdout.split()]


def main():
    with tempfile.TemporaryDirectory() as ws:
        env = {**os.environ, 'FLASHINFER_NB_WORKSPACE_BASE': ws}
        cold = run(COLD, env)[0]
        imports = [run(IMPORT, env) for _ in range(7)]
        firsts = [run(FIRST_CALL, env) for _ in range(5)]
    res = dict(cold_compile_s=cold,
               import_torch_ms=statistics.median(i[0] for i in imports) * 1e3,
               import_flashinfer_nb_ms=statistics.median(i[1] for i in imports) * 1e3,
               first_call_ms=statistics.median(f[0] for f in firsts) * 1e3,
               second_call_ms=statistics.median(f[1] for f in firsts) * 1e3)
    for k, v in res.items(): print(f"{k:>24}: {v:.3f}")
    print(json.dumps(res))


if __name__ == '__main__':
    main()
