#!/usr/bin/env bash
# The package as a user gets it: `python -m build` makes an sdist and a wheel (the wheel built from the
# sdist, so a file missing from the sdist fails here), the wheel goes into a fresh venv, and from /tmp
# `import flashinfer_nb` must find include/ and csrc/ inside the installed package, compile-only build
# the scale module, and write nothing inside the installed package.
# Dependencies (torch, apache-tvm-ffi, ninja, jinja2) are borrowed from the calling environment through a
# .pth file, so this needs no network; FRESH_DEPS=1 resolves them from the package index instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-python3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t0=$SECONDS

# build/ and the egg-info are setuptools scratch; a stale build/lib could carry files a fresh build would not
(cd "$root" && rm -rf build && "$py" -m build --no-isolation --outdir "$tmp/dist" . >"$tmp/build.log" 2>&1) \
  || { cat "$tmp/build.log"; echo "python -m build failed" >&2; exit 1; }
wheel=$(ls "$tmp"/dist/*.whl); sdist=$(ls "$tmp"/dist/*.tar.gz)
"$py" -m zipfile -l "$wheel" >"$tmp/wheel.txt"
for f in flashinfer_nb/data/include/flashinfer_nb/scale.cuh flashinfer_nb/data/csrc/scale_kernels.cu flashinfer_nb/data/csrc/scale.cpp \
         flashinfer_nb/data/csrc/tvm_ffi_utils.h flashinfer_nb/data/settings.ini flashinfer_nb/tuning_db.json; do
  grep -q "^$f " "$tmp/wheel.txt" || { echo "wheel lacks $f" >&2; exit 1; }
done
echo "built $(basename "$sdist") and $(basename "$wheel") in $((SECONDS - t0)) s"

"$py" -m venv "$tmp/venv"
if [ "${FRESH_DEPS:-0}" = 1 ]; then
  "$tmp/venv/bin/pip" install -q "$wheel"
else
  site=$("$tmp/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  "$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' >"$site/_borrowed_deps.pth"
  # the venv's own old setuptools would shadow the borrowed one that torch's metadata requires
  "$tmp/venv/bin/pip" uninstall -q -y setuptools
  "$tmp/venv/bin/pip" install -q --no-index "$wheel"
fi
"$tmp/venv/bin/pip" check >/dev/null

cd /tmp
FLASHINFER_NB_WORKSPACE_BASE="$tmp/ws" FLASHINFER_NB_CUDA_ARCH_LIST=9.0a "$tmp/venv/bin/python" - "$tmp/venv" <<'PY'
import os, sys, time
from pathlib import Path
venv = Path(sys.argv[1]).resolve()
import flashinfer_nb
from flashinfer_nb.jit import env
pkg = Path(flashinfer_nb.__file__).resolve().parent
assert venv in pkg.parents, f"imported {pkg}, not the installed wheel in {venv}"
assert env.DATA_ROOT == pkg/'data' and env.INCLUDE_DIR == pkg/'data'/'include', env.DATA_ROOT
assert env.get_setting('fallback_cuda_arch_list')[1] == 'settings.ini', 'settings.ini not read from the package'
from flashinfer_nb import tune
assert tune.SHIPPED_DB == pkg/'tuning_db.json' and isinstance(tune.read_db(tune.SHIPPED_DB), dict), tune.SHIPPED_DB
snapshot = lambda: sorted((str(p.relative_to(pkg)), p.stat().st_mtime_ns) for p in pkg.rglob('*'))
before = snapshot()
from flashinfer_nb.scale import gen_scale_module
spec = gen_scale_module()
assert all(pkg/'data'/'csrc' in Path(s).resolve().parents for s in spec.sources), spec.sources
t0 = time.perf_counter(); lib = spec.build(); dt = time.perf_counter() - t0
assert lib.is_file() and Path(os.environ['FLASHINFER_NB_WORKSPACE_BASE']).resolve() in lib.resolve().parents, lib
assert spec.build() == lib and spec.is_compiled
changed = sorted(set(snapshot()) ^ set(before))
assert not changed, f"the JIT wrote inside the installed package: {changed[:5]}"
print(f"flashinfer_nb {flashinfer_nb.__version__} from {pkg}: compiled {lib.name} for sm_90a in {dt:.1f} s, package untouched")
PY
cfg=$("$tmp/venv/bin/python" -m flashinfer_nb show-config)   # captured: grep -q on a pipe would cut it short
grep -q "include dir : $tmp/venv/.*/flashinfer_nb/data/include" <<<"$cfg" || { echo "$cfg"; echo "show-config: wrong include dir" >&2; exit 1; }
echo "wheel check passed in $((SECONDS - t0)) s"
