#!/usr/bin/env python3
"""Each translation unit of a JIT module compiled alone, one at a time (the module's own flags), median of N runs,
with nvcc's phase times (`nvcc --time`). On a 16-core machine the TUs of a module run in parallel, so what a cold
build waits for is about the longest TU plus the link: this prints the TUs longest first.

    python benchmarks/explore/tu_times.py norm [--repeat 3] [--phases] [--only f16_fused] [--extra='-Xcompiler -O1']

Run it under `nice` on a shared machine and compare before/after in the same conditions.
"""
import argparse, csv, os, resource, shlex, statistics, subprocess, sys, tempfile, time
from pathlib import Path


def spec_of(name: str):
    if name == 'scale':
        from flashinfer_nb.scale import gen_scale_module; return gen_scale_module()
    if name == 'norm':
        from flashinfer_nb.norm import gen_norm_module; return gen_norm_module()
    from flashinfer_nb.activation import gen_act_and_mul_module
    return gen_act_and_mul_module(name.removesuffix('_and_mul'))


def commands(spec, out: Path, extra: list[str]):
    from flashinfer_nb.jit.core import find_nvcc, cuda_include_dir
    spec.write_ninja()   # renders generated sources
    for src, obj in zip(spec.sources, spec._objects()):
        if src.suffix == '.cu':
            yield src, obj, [str(find_nvcc()), *spec.cuda_cflags(), *extra, '-c', str(src), '-o', str(out/obj)]
        else:
            yield src, obj, ['c++', *spec.cflags(), f'-I{cuda_include_dir()}', *extra, '-c', str(src), '-o', str(out/obj)]


def phases(cmd: list[str], tmp: Path) -> dict[str, float]:
    if 'nvcc' not in Path(cmd[0]).name: return {}
    f = tmp/'time.csv'
    f.unlink(missing_ok=True)
    subprocess.run([*cmd, '--time', str(f)], check=True, capture_output=True)
    acc: dict[str, float] = {}
    for row in csv.reader(f.read_text().splitlines()):
        if len(row) < 8 or row[0].strip() == 'source file name': continue
        ph = row[1].strip()
        acc[ph] = acc.get(ph, 0.0) + float(row[-2]) / 1000
    return acc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('module')
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--phases', action='store_true')
    ap.add_argument('--only', default='', help='substring of the object names to time')
    ap.add_argument('--extra', default='', help='extra flags for every TU')
    a = ap.parse_args()
    spec = spec_of(a.module)
    tmp = Path(tempfile.mkdtemp(prefix='tu-times-'))
    rows = []
    for src, obj, cmd in commands(spec, tmp, shlex.split(a.extra)):
        if a.only and a.only not in obj: continue
        ts, cpu = [], []
        for _ in range(a.repeat):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN); t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            ts.append(time.perf_counter() - t); r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
        ph = phases(cmd, tmp) if a.phases else {}
        rows.append((statistics.median(cpu), obj, ts, ph))
        print(f"{obj:42s} cpu {statistics.median(cpu):6.2f} s ({' '.join(f'{x:.2f}' for x in cpu)}) "
              f"wall {statistics.median(ts):6.2f} s"
              + (('  ' + ', '.join(f'{k} {v:.2f}' for k, v in ph.items() if v >= 0.01)) if ph else ''), flush=True)
    rows.sort(reverse=True)
    print(f"# longest (cpu): {rows[0][1]} {rows[0][0]:.2f} s; sum {sum(r[0] for r in rows):.2f} s over {len(rows)} TUs; "
          f"load {os.getloadavg()[0]:.2f}")


if __name__ == '__main__':
    main()
