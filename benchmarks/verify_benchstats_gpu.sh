#!/usr/bin/env bash
# GPU check of issue 17 (conditions, warnings, A/B verdicts, --baseline, --validate). Run from the repo root on an
# H100/H200 with flashinfer_nb importable; results go to $OUT (default ./out_benchstats). About 4-6 minutes.
#   bash benchmarks/verify_benchstats_gpu.sh
set -u
export OUT=${OUT:-out_benchstats}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
B="$PY benchmarks/flashinfer_nb_benchmark.py --routine scale --backends flashinfer_nb torch --dtype float16 --log2-sizes 20 24 28"
step() { echo; echo "=== $*"; }
step "NVML"; $PY -c "import pynvml; pynvml.nvmlInit(); print('pynvml ok, driver', pynvml.nvmlSystemGetDriverVersion())" || echo "pynvml MISSING: conditions will read 'unknown'"
step "CPU+GPU tests of benchstats and the CLI (includes test_self_comparison_19_of_20_on_gpu, ~20 s)"
$PY -m pytest -q -p no:cacheprovider -rs tests/test_benchstats.py tests/test_bench.py tests/test_testing.py -k "not self_comparison" 2>&1 | tail -4
$PY -m pytest -q -p no:cacheprovider -s tests/test_benchstats.py -k self_comparison 2>&1 | grep -E "self-comparison|passed|failed" | tee "$OUT/selftest.txt"
step "run 1 -> $OUT/r1.csv (conditions line above the table, warnings under it)"
$B --output-path "$OUT/r1.csv" 2>&1 | tee "$OUT/run1.txt"
step "run 2 against run 1 (--baseline): a verdict per case, expected SAME (or UNSURE at 2^20), never FASTER/SLOWER"
$B --baseline "$OUT/r1.csv" 2>&1 | tee "$OUT/run2.txt"
step "refusal: bfloat16 against a float16 baseline (expect exit 2 and 'dtype of scale: baseline ['float16'], this run ['bfloat16']')"
$PY benchmarks/flashinfer_nb_benchmark.py --routine scale --dtype bfloat16 --log2-sizes 20 --baseline "$OUT/r1.csv"; echo "exit $?"
step "timer cross-check (--validate) on scale n=2^24 float16"
$PY benchmarks/flashinfer_nb_benchmark.py --routine scale --backends flashinfer_nb --dtype float16 --log2-sizes 24 --validate 2>&1 | tee "$OUT/validate.txt"
step "notebook 04c on the GPU (A/B of torch x*2 vs scale; 20 self-comparisons, asserts >= 19 SAME)"
$PY -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env nbs/04c_benchstats.ipynb 2>&1 | tail -3
$PY - <<'PY' 2>&1 | tee "$OUT/selfcompare.txt"
import torch
from flashinfer_nb.benchstats import compare, conditions_line
from flashinfer_nb.scale import scale
x = torch.randn(1 << 24, device='cuda', dtype=torch.float16)
f = lambda x: scale(x, 2.0)
rs = [compare(f, f, (x,), names=('A', 'A'), repeat_time_ms=10) for _ in range(20)]
print(conditions_line(rs[0].conditions))
print(sum(r.verdict == 'SAME' for r in rs), 'of 20 SAME; ratios', [f"{r.ratio:.3f}" for r in rs])
print(compare(lambda x: x * 2.0, f, (x,), names=('torch x*2', 'scale'), repeat_time_ms=20))
PY
step "roofline of the library's ops through the CLI (--roofline) -> $OUT/ops_roofline.png, rows in $OUT/ops_roofline.csv"
$PY benchmarks/flashinfer_nb_benchmark.py --routine scale rmsnorm fused_add_rmsnorm silu_and_mul gelu_and_mul gelu_tanh_and_mul \
    --dtype bfloat16 --log2-sizes 24 28 --rmsnorm-shapes 32x4096 8192x4096 --fused-add-rmsnorm-shapes 32x4096 8192x4096 \
    --silu-shapes 32x28672 8192x28672 --gelu-shapes 8192x28672 --gelu-tanh-shapes 8192x28672 --refcheck \
    --roofline "$OUT/ops_roofline.png" --output-path "$OUT/ops_roofline.csv" 2>&1 | tee "$OUT/ops_roofline.txt"
step "roofline: copy ceiling, bf16 matmul peak, scale fp16 at 2^24 and a 4096 bf16 matmul -> $OUT/roofline.png"
$PY - <<'PY' 2>&1 | tee "$OUT/roofline.txt"
import os, torch
from flashinfer_nb.benchstats import matmul_peak, roofline_point, plot_roofline, RunConditions
from flashinfer_nb.testing import copy_bandwidth, bench_gpu_time
from flashinfer_nb.scale import scale
with RunConditions() as rc:
    bw, fl = copy_bandwidth(), matmul_peak()
    n = 1 << 24; x = torch.randn(n, device='cuda', dtype=torch.float16)
    ts = bench_gpu_time(lambda: scale(x, 2.0)); a = torch.randn(4096, 4096, device='cuda', dtype=torch.bfloat16)
    tm = bench_gpu_time(torch.matmul, (a, a))
med = lambda t: sorted(t)[len(t) // 2] * 1e3
pts = {'scale 2^24 fp16': roofline_point(4 * n, n, med(ts), bw, fl),
       'matmul 4096 bf16': roofline_point(3 * 4096 ** 2 * 2, 2 * 4096 ** 3, med(tm), bw, fl)}
print(f"copy ceiling {bw:.2f} TB/s, bf16 matmul peak {fl:.0f} TFLOP/s")
for k, p in pts.items(): print(k, {kk: round(v, 3) if isinstance(v, float) else v for kk, v in p.items()})
plot_roofline(pts, bw, fl, conditions=rc.fields(timer='cupti', cold_l2=True), path=os.path.join(os.environ.get('OUT', 'out_benchstats'), 'roofline.png'))
PY
