#!/usr/bin/env python3
"""The JIT's own key/dependency step of one module build, timed alone (no compile): the content key (`key_parts`:
every source and included header resolved and hashed), one manifest check, and the manifest's dependency list
(`_tracked_deps`, over ninja's deps log of a workspace where the module is built). Median of N, each on a fresh spec.

    python benchmarks/explore/key_step_times.py WORKSPACE [N]     # WORKSPACE: a FLASHINFER_NB_WORKSPACE_BASE where
                                                                  # norm was built (for sm_90a, CompilationContext('9.0'))

Runs on the JIT core from before `DepScan` too (PYTHONPATH=<old checkout>, from outside the new one), for A/B.
"""
import os, statistics, sys, time

os.environ['FLASHINFER_NB_WORKSPACE_BASE'] = sys.argv[1]
import flashinfer_nb, flashinfer_nb.jit.core as jc
from flashinfer_nb.op_jit import gen_norm_module
from flashinfer_nb.jit.compilation_context import CompilationContext

new = hasattr(jc, 'DepScan')
spec_of = lambda: gen_norm_module(context=CompilationContext('9.0'))
spec_of().key_parts()   # imports and the toolchain memo out of the timing
ts = []
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 15):
    s = spec_of(); t = time.perf_counter()
    if new:
        scan = jc.DepScan(); key = s.key_of(s.key_parts(scan)); s._check_manifest(key, scan); deps = s._tracked_deps(scan)
    else:
        key = s.key_of(s.key_parts()); s._check_manifest(key); deps = s._tracked_deps()
    ts.append(time.perf_counter() - t)
print(f"{flashinfer_nb.__file__} ({'DepScan' if new else 'before DepScan'}): {len(s.sources)} sources, {len(deps)} "
      f"deps: median {statistics.median(ts) * 1e3:.1f} ms (min {min(ts) * 1e3:.1f}, max {max(ts) * 1e3:.1f}) over {len(ts)}")
