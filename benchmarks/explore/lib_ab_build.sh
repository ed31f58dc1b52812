#!/usr/bin/env bash
# Build lib_ab.cu's binary from two or three trees of include/ (session 55: every session rebuilt this by hand).
# Each tree is a git revision of this repository (its include/ is taken with git archive) or a folder holding
# flashinfer_nb/*.cuh (e.g. an edited copy: cp -r include /tmp/tB and change it). Compiles the trees' lib_ab_tu.cu side
# by side (about 1.5 min each on 2 cores), links, strips. A tree `fi:DIR` is FlashInfer's kernels instead
# (cold_code_fi_tu.cu: its norm.cuh and gated kernel, built as FlashInfer builds them), DIR its wheel's data/include;
# headers it includes that the kernels never use (cuBLAS, cuRAND) may be empty stubs under FI_STUBS (a folder).
#   benchmarks/explore/lib_ab_build.sh OUT TREE_A TREE_B [TREE_C]
#   e.g. benchmarks/explore/lib_ab_build.sh /tmp/ab HEAD /tmp/tB/include fi:.gpu/fi/whl/flashinfer/data/include
#   e.g. benchmarks/explore/lib_ab_build.sh /tmp/ab HEAD /tmp/tB/include && /tmp/ab 20 fused all 8192 1922
set -euo pipefail
out=${1:?OUT}; shift
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 OUT TREE_A TREE_B [TREE_C]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
names=(a b c); trees=("$@"); incs=(); objs=(); pids=()
for i in "${!trees[@]}"; do   # every tree resolved before any build starts
  t=${trees[$i]}; n=${names[$i]}
  if [[ $t == fi:* ]]; then
    inc=$(cd "${t#fi:}" && pwd)
    [ -f "$inc/flashinfer/activation.cuh" ] || { echo "$t: no flashinfer/activation.cuh in $inc" >&2; exit 2; }
    incs+=("$inc"); echo "tree $n: FlashInfer ($inc)"; continue
  elif [ -d "$t" ]; then
    inc=$(cd "$t" && pwd)
  else
    git -C "$repo" rev-parse -q --verify "$t^{commit}" > /dev/null || { echo "$t: neither a folder nor a revision" >&2; exit 2; }
    mkdir -p "$work/$n"
    git -C "$repo" archive "$t" include | tar -x -C "$work/$n"
    inc=$work/$n/include
  fi
  [ -f "$inc/flashinfer_nb/norm.cuh" ] || { echo "$t: no flashinfer_nb/norm.cuh in $inc" >&2; exit 2; }
  incs+=("$inc"); echo "tree $n: $t ($inc)"
done
for i in "${!trees[@]}"; do
  n=${names[$i]}
  if [[ ${trees[$i]} == fi:* ]]; then
    nvcc -O3 -std=c++17 -arch=sm_90a -use_fast_math -c -I "${incs[$i]}" ${FI_STUBS:+-I "$FI_STUBS"} -Dfi_norm=lib_$n \
      -o "$work/ab_$n.o" "$here/cold_code_fi_tu.cu" > "$work/$n.log" 2>&1 &
  else
    nvcc -O3 -std=c++17 -arch=sm_90a -c -I "${incs[$i]}" -DLIB_AB_GT_HELPER -Dflashinfer_nb=fnb_$n -DLIB_AB_ENTRY=lib_$n \
      -o "$work/ab_$n.o" "$here/lib_ab_tu.cu" > "$work/$n.log" 2>&1 &
  fi
  pids+=($!); objs+=("$work/ab_$n.o")
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || { cat "$work/${names[$i]}.log" >&2; exit 1; }; done
nvcc -O3 -std=c++17 -arch=sm_90a $([ ${#objs[@]} -eq 3 ] && echo -DLIB_AB_C) -o "$out" "$here/lib_ab.cu" "${objs[@]}"
strip "$out"; echo "built $out"
