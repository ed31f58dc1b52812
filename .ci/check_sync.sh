#!/usr/bin/env bash
# Fail when the committed package, tests, README or notebooks differ from what the notebooks export and
# nbdev-clean produce. Works on a copy, so the working tree is never modified.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r "$root"/{nbs,flashinfer_nb,tests,include,csrc,pyproject.toml,settings.ini,README.md} "$tmp"/
(cd "$tmp" && nbdev-export && nbdev-clean)
status=0
for d in flashinfer_nb tests nbs; do
  if ! diff -r -q -x __pycache__ -x '*.pyc' -x .ipynb_checkpoints "$root/$d" "$tmp/$d"; then status=1; fi
done
diff -q "$root/README.md" "$tmp/README.md" || status=1
if [ $status -ne 0 ]; then
  echo "Out of sync: edit the notebooks, then run 'make export' (nbdev-export + nbdev-clean) and commit the result." >&2
  exit 1
fi
echo "export sync: package, tests and notebooks match what the notebooks export"
