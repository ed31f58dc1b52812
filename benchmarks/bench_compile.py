#!/usr/bin/env python3
"""How long the edit-compile loop waits: every row of issue 16's table, cold and warm, each in a fresh process.

Rows: a `%%cuda_kernel` cell with a TVM-FFI binding (the cell includes "tvm_ffi_utils.h" and exports itself), a
launcher cell (`extern "C"`, the binding generated and compiled by c++), an NVRTC cell (the launcher cell's kernel,
`--nvrtc`: compiled in the process by NVRTC, launched from Python), and the library modules norm, silu_and_mul
and scale; norm is the norm module in its default kernel-TU layout (`balanced`, nbs/11_norm.ipynb), norm_pair the
same module in the `pair` layout and norm_vec in the `vec` one (one kernel TU per vector width), for A/B on one machine.
*Cold*, a module: its first use in a new process on an empty private workspace (no cache entry, no objects).
*Cold*, a cell: a cell whose content the cache has not seen, compiled in a session that has compiled another cell
before (what the edit loop waits for). *Warm*: a new process asking for the same module again (key, manifest check,
load; no ninja), or the same cell again in a session. Each cold build also
reports its translation units' own times (ninja's log), which says where a module's seconds go.

    python benchmarks/bench_compile.py [--repeat 3] [--rows scale,norm | --rows norm norm_pair] [--out results.txt]
"""
import argparse, json, os, platform, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

BINDING_CELL = r'''#include "tvm_ffi_utils.h"

__global__ void saxpy_kernel(const float* x, float* y, float a, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void saxpy(TensorView x, TensorView y, double a) {
  CHECK_INPUT(x); CHECK_INPUT(y); CHECK_SAME_SHAPE(x, y);
  const int64_t n = x.numel();
  saxpy_kernel<<<(n + 255) / 256, 256, 0, flashinfer_nb::get_stream(x.device())>>>(
      flashinfer_nb::data_ptr<const float>(x), flashinfer_nb::data_ptr<float>(y), static_cast<float>(a), n);
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(saxpy, saxpy);
'''

LAUNCHER_CELL = r'''#include <cstdint>
#include <cuda_runtime.h>

__global__ void axpy_kernel(const float* __restrict__ x, float* __restrict__ y, float a, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" cudaError_t axpy(const float* x, float* y, float a, int64_t n, cudaStream_t stream) {
  axpy_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, a, n);
  return cudaGetLastError();
}
'''

# Each row: code run in a fresh process that prints one JSON line {"s": seconds, "dir": build folder}.
SPEC = {
    'scale': "from flashinfer_nb.scale import gen_scale_module as g; spec = g()",
    'norm': "from flashinfer_nb.norm import gen_norm_module as g; spec = g()",
    # the other kernel-TU layouts (norm_kernel_tus = pair: eleven TUs, a fused and a plain width of one dtype in each;
    # vec: one TU per vector width) to compare with the default (balanced: fifteen) on this machine
    'norm_pair': "from flashinfer_nb.norm import gen_norm_module as g; spec = g(layout='pair')",
    'norm_vec': "from flashinfer_nb.norm import gen_norm_module as g; spec = g(layout='vec')",
    'silu_and_mul': "from flashinfer_nb.activation import gen_act_and_mul_module as g; spec = g('silu')",
}
MODULE = r'''
import json, time, flashinfer_nb
{spec}
t = time.perf_counter(); spec.build_and_load(); s = time.perf_counter() - t
print(json.dumps(dict(s=s, dir=str(spec.build_dir))))'''
# A cell is timed as the edit loop meets it: in a session that has compiled a cell before (imports, arch
# detection and the toolchain probe are done), this cell's content is new to the cache.
CELL = r'''
import json, time, flashinfer_nb
from flashinfer_nb.magics import compile_cell
compile_cell('bench_warmup', {warm!r}, progress=False)
body = {body!r}
t = time.perf_counter(); mod, rep = compile_cell({name!r}, body, progress=False); s = time.perf_counter() - t
assert mod is not None, rep.log
print(json.dumps(dict(s=s, dir=str(mod.spec.build_dir))))'''


# An NVRTC cell (`%%cuda_kernel NAME --nvrtc`, nbs/20c_nvrtc_cell.ipynb): the launcher cell's kernel without its host
# launcher, compiled in the process by NVRTC after another NVRTC cell (the library is loaded). There is no cache to
# hit in a new process: its "warm" row compiles again.
NVRTC_CELL = r'''
import json, time, flashinfer_nb
from flashinfer_nb.nvrtc_cell import compile_nvrtc_cell
compile_nvrtc_cell('bench_warmup', '__global__ void warm(int* p) {{ p[0] = 1; }}')
body = {body!r}
t = time.perf_counter(); mod, rep = compile_nvrtc_cell('bench_nvrtc', body); s = time.perf_counter() - t
assert mod is not None, rep.log
print(json.dumps(dict(s=s, dir=str(mod.cubins[next(iter(mod.cubins))].parent), nvrtc=mod.program.seconds)))'''


def code_for(row: str) -> str:
    warm = 'extern "C" int bench_warm(int x) { return x + 1; }\n'
    if row == 'nvrtc_cell': return NVRTC_CELL.format(body=LAUNCHER_CELL.split('extern "C"')[0])
    if row == 'binding_cell': return CELL.format(warm=warm, body=BINDING_CELL, name='bench_binding')
    if row == 'launcher_cell': return CELL.format(warm=warm, body=LAUNCHER_CELL, name='bench_launcher')
    return MODULE.format(spec=SPEC[row])


def run(code: str, ws: str) -> dict:
    env = {**os.environ, 'FLASHINFER_NB_WORKSPACE_BASE': ws, 'FLASHINFER_NB_JIT_LOG': '0'}
    p = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)
    if p.returncode: sys.exit(f"failed:\n{p.stdout}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def steps(build_dir: str) -> str:
    "Per-target times from ninja's log: what each translation unit and the link took."
    log = Path(build_dir)/'.ninja_log'
    if not log.exists(): return ''
    out = []
    for line in log.read_text().splitlines()[1:]:
        start, end, _, target, _ = line.split('\t')
        out.append(f"{Path(target).name} {(int(end) - int(start)) / 1000:.2f}")
    return ', '.join(out)


def machine() -> str:
    cpu = next((l.split(':', 1)[1].strip() for l in Path('/proc/cpuinfo').read_text().splitlines()
                if l.startswith('model name')), platform.processor())
    gpu = subprocess.run(['nvidia-smi', '--query-gpu=name', '--format=csv,noheader'], capture_output=True,
                         text=True).stdout.strip().splitlines() if shutil.which('nvidia-smi') else []
    nvcc = subprocess.run(['nvcc', '--version'], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    return (f"{gpu[0] if gpu else 'no GPU'}; {os.cpu_count()} cores ({cpu}); load {os.getloadavg()[0]:.2f}; "
            f"{nvcc}; python {platform.python_version()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--repeat', type=int, default=3, help='cold builds per row (median reported)')
    ap.add_argument('--rows', nargs='+', default=['binding_cell,launcher_cell,nvrtc_cell,scale,norm,norm_pair,norm_vec,silu_and_mul'],
                    help='rows to time, comma- or space-separated')
    ap.add_argument('--out', default=None, help='also write the table here')
    a = ap.parse_args()
    rows = [r for arg in a.rows for r in arg.split(',') if r]
    bad = [r for r in rows if r not in ('binding_cell', 'launcher_cell', 'nvrtc_cell', *SPEC)]
    if bad: ap.error(f"unknown rows {bad}")
    lines = [f"# compile times, {time.strftime('%Y-%m-%d %H:%M')}: {machine()}",
             f"# cold: median of {a.repeat} builds into empty workspaces (min-max); warm: a new process, cached",
             "| build | cold s | warm s | translation units (s), last cold build |", "|---|---|---|---|"]
    print('\n'.join(lines), flush=True)
    for row in rows:
        code = code_for(row)
        cold, last = [], None
        for i in range(a.repeat):
            ws = tempfile.mkdtemp(prefix=f'fnb-compile-{row}-')
            r = run(code, ws); cold.append(r['s']); last = (ws, r)
            if 'nvrtc' in r: last[1]['steps'] = f"NVRTC compile {r['nvrtc']:.3f} (of {r['s']:.3f})"
        warm = [run(code, last[0])['s'] for _ in range(3)]
        line = (f"| {row} | {statistics.median(cold):.2f} ({min(cold):.2f}-{max(cold):.2f}) | "
                f"{statistics.median(warm):.3f} | {last[1].get('steps') or steps(last[1]['dir'])} |")
        print(line, flush=True); lines.append(line)
    if a.out: Path(a.out).write_text('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
