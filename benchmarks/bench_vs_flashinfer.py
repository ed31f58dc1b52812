"""Issue 19: our norm / activation kernels against FlashInfer 0.7.2's, in one process, timed the same way.

FlashInfer's sources are NOT part of this repository. Download and extract the wheel, then point
FLASHINFER_WHEEL_DIR at the folder that holds `flashinfer/` (with `flashinfer/data/{include,csrc,...}`):

    pip download --no-deps flashinfer-python==0.7.2.post1 -d /tmp/fi && unzip -q /tmp/fi/*.whl -d /tmp/fi/whl
    FLASHINFER_WHEEL_DIR=/tmp/fi/whl python benchmarks/bench_vs_flashinfer.py [--quick] [--out FILE]

Their norm module is built from their own `csrc/norm.cu` + `csrc/flashinfer_norm_binding.cu`, their
activation modules from the Jinja template in their `jit/activation.py` (SiLU; GELU and GELU-tanh with --acts),
through this project's JIT
(one cache, the same nvcc flags and archs as ours). Every kernel is timed with CUDA events around one call,
L2 flushed (a 256 MB write) before each, median of N, in interleaved rounds (ours, theirs, torch per round)
so clock drift hits all alike. At decode sizes those times fall on modes ~0.2 us apart and a median snaps to one:
`--stat trimmed` takes each round's mean of the middle 80 % instead (see summarize).
"""
import argparse, functools, itertools, math, os, random, re, statistics, sys
from pathlib import Path
import torch
import torch.nn.functional as F

from flashinfer_nb.jit.core import gen_jit_spec, generated_source
from flashinfer_nb.bench import bench_host_times, paired_us
from flashinfer_nb.norm import rmsnorm, fused_add_rmsnorm, gemma_rmsnorm, gemma_fused_add_rmsnorm
from flashinfer_nb.activation import silu_and_mul, gelu_and_mul, gelu_tanh_and_mul

# the gated activations: ours, torch's reference of the activation, the variable holding FlashInfer's device function
# (`<name>_cu_str` in their jit/activation.py; the function itself is named as the activation)
ACTS = {'silu': (silu_and_mul, F.silu, 'silu_def'), 'gelu': (gelu_and_mul, F.gelu, 'gelu_def'),
        'gelu_tanh': (gelu_tanh_and_mul, lambda a: F.gelu(a, approximate='tanh'), 'gelu_def_tanh')}


# the flags FlashInfer's own JIT (flashinfer/jit/core.py) adds to every module: dtype switches, fast math
FI_FLAGS = ['-DFLASHINFER_ENABLE_F16', '-DFLASHINFER_ENABLE_BF16', '-DFLASHINFER_ENABLE_FP8_E4M3',
            '-DFLASHINFER_ENABLE_FP8_E5M2', '-use_fast_math', '-DNDEBUG']


def fi_modules(root: Path, acts=('silu',)):
    "FlashInfer's norm module and, per name in `acts`, its `<act>_and_mul` module, built from their wheel's sources."
    data = root/'flashinfer'/'data'
    if not (data/'csrc'/'norm.cu').exists():
        sys.exit(f"FLASHINFER_WHEEL_DIR={root}: no flashinfer/data/csrc/norm.cu there (extract the wheel, see the docstring)")
    inc = [data/'include', data/'csrc', data/'cutlass'/'include', data/'cutlass'/'tools'/'util'/'include', data/'spdlog'/'include']
    # their trtllm helpers include <cublasLt.h>, <cublas_v2.h> and <curand_kernel.h> but use nothing from
    # them: empty stand-ins, for toolkits without those libraries' headers
    stub = gen_jit_spec('fi072_stub', [])
    inc.append(generated_source(stub, 'cublasLt.h', '#pragma once\n').parent)
    for h in ('cublas_v2.h', 'curand_kernel.h'): generated_source(stub, h, '#pragma once\n')
    norm = gen_jit_spec('fi072_norm', [data/'csrc'/'norm.cu', data/'csrc'/'flashinfer_norm_binding.cu'],
                        extra_cuda_cflags=FI_FLAGS + ['-DENABLE_BF16', '-DENABLE_FP8'], extra_include_dirs=inc).build_and_load()
    import jinja2
    src = (root/'flashinfer'/'jit'/'activation.py').read_text()
    templ = re.search(r'activation_templ = r"""(.*?)"""', src, re.S).group(1)
    mods = {}
    for act in acts:
        body = re.search(rf'{ACTS[act][2]}_cu_str = r"""(.*?)"""', src, re.S).group(1)
        spec = gen_jit_spec(f'fi072_{act}_and_mul', [], extra_cuda_cflags=FI_FLAGS, extra_include_dirs=inc)
        spec.sources = [generated_source(spec, f'{act}_and_mul.cu',
                                         jinja2.Template(templ).render(act_func_name=act, act_func_def=body))]
        mods[act] = spec.build_and_load()
    return norm, mods


def gated_pair(act):
    """Ours and FlashInfer's `<act>_and_mul` (FlashInfer's built from the wheel at FLASHINFER_WHEEL_DIR), for the explore
    scripts that put the two side by side (ncu_gated_vs_fi.py, gated_context.py)."""
    root = os.environ.get('FLASHINFER_WHEEL_DIR')
    if not root: sys.exit('set FLASHINFER_WHEEL_DIR (see benchmarks/bench_vs_flashinfer.py)')
    _, fi_acts = fi_modules(Path(root), (act,))
    return ACTS[act][0], getattr(fi_acts[act], f'{act}_and_mul')


# The same-run copy ceiling of a fused_add_rmsnorm case: a 16-byte copy kernel moving the bytes the op moves (two
# row-major streams in, the same two out), timed with the op in the same rounds. Built as a launcher cell.
COPY_CELL = r'''#include <cstdint>
#include <cuda_runtime.h>

__global__ void copy2_kernel(const uint4* __restrict__ a, const uint4* __restrict__ b, uint4* __restrict__ c,
                             uint4* __restrict__ d, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) { const uint4 u = a[i], v = b[i]; c[i] = u; d[i] = v; }
}

extern "C" cudaError_t copy2(const float* a, const float* b, float* c, float* d, int64_t n16, cudaStream_t stream) {
  copy2_kernel<<<(n16 + 255) / 256, 256, 0, stream>>>(reinterpret_cast<const uint4*>(a), reinterpret_cast<const uint4*>(b),
                                                      reinterpret_cast<uint4*>(c), reinterpret_cast<uint4*>(d), n16);
  return cudaGetLastError();
}

// The same-run copy ceiling of a gated-activation case: read both halves of each row, write one (2d in, d out), 16-byte
// vectors, a row's chunks on grid.x and the row on grid.y (as the op's own launch).
__global__ void copy_gated_kernel(const uint4* __restrict__ in, uint4* __restrict__ out, int64_t nv) {
  const int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, r = blockIdx.y;
  if (j < nv) { const uint4 u = in[r * 2 * nv + j], v = in[r * 2 * nv + nv + j];
                out[r * nv + j] = make_uint4(u.x ^ v.x, u.y ^ v.y, u.z ^ v.z, u.w ^ v.w); }
}

extern "C" cudaError_t copy_gated(const float* in, float* out, int64_t nv, int64_t rows, cudaStream_t stream) {
  copy_gated_kernel<<<dim3((nv + 255) / 256, rows), 256, 0, stream>>>(reinterpret_cast<const uint4*>(in),
                                                                      reinterpret_cast<uint4*>(out), nv);
  return cudaGetLastError();
}

// the floor of a latency-bound case: one launch of a kernel that does nothing, timed like the ops
__global__ void empty_kernel(float* p) {}

extern "C" cudaError_t empty(float* p, cudaStream_t stream) {
  empty_kernel<<<1, 32, 0, stream>>>(p);
  return cudaGetLastError();
}
'''


def copy_ceiling_fn(mod, x, r=None):
    """A call of the copy kernel moving `x` and `r`'s bytes into new buffers (`r` None: `x`'s bytes, half in each
    stream), or None when they are not whole 16-byte vectors."""
    nbytes = x.numel() * x.element_size()
    if nbytes % (16 if r is not None else 32): return None
    if r is None: a, b = x.reshape(-1).view(torch.float32).chunk(2)
    else: a, b = x.reshape(-1).view(torch.float32), r.reshape(-1).view(torch.float32)
    c, d = torch.empty_like(a), torch.empty_like(b)
    return lambda: mod.copy2(a, b, c, d, a.numel() // 4)


def copy_gated_fn(mod, x, o):
    """A call of the copy kernel reading `x`'s rows (2d wide) and writing `o`'s (d wide) into new buffers, or None when a
    half row is not whole 16-byte vectors or there are more rows than one grid dimension holds."""
    rows, d2 = x.shape
    half = d2 // 2 * x.element_size()
    if half % 16 or rows > 65535: return None
    src, dst = x.reshape(-1).view(torch.float32).clone(), torch.empty_like(o).reshape(-1).view(torch.float32)
    return lambda: mod.copy_gated(src, dst, half // 16, rows)


# --placements (session 65): where a case's buffers sit moved a gated case's time by up to 2 %, both libraries' kernels
# but not by the same amount: silu 2338 x 748 fp16, ours 7.13 us writing one output buffer and 6.98 writing another,
# FlashInfer's 7.03 and 7.15 on the same two (benchmarks/explore/gated_context.py, NVIDIA_H200_gated_context_s65.txt), so
# one allocation's FI/ours can read 0.98 or 1.02 for the same kernels. With P sets of a case's buffers, each call of
# every library takes the next set in turn: each round's statistic covers every placement, for both alike.
SPACERS = []   # the allocations that push each buffer set to another address, kept alive with the sets


def buffer_sets(make, p, rng, device='cuda'):
    """`p` results of `make()` (one set of a case's buffers each); from the second on, each after a spacer allocation of
    a random multiple of 512 bytes below 4 MB on `device` (kept in SPACERS), so no two sets sit at the same offsets."""
    sets = []
    for i in range(p):
        if i: SPACERS.append(torch.empty(rng.randrange(1, 8192) * 512, dtype=torch.uint8, device=device))
        sets.append(make())
    return sets


def rotating(fns):
    "One callable running the next of `fns` on each call (a case's buffer sets in turn, see buffer_sets), or None if any is None."
    if any(f is None for f in fns): return None
    if len(fns) == 1: return fns[0]
    it = itertools.cycle(fns)
    return lambda: next(it)()


def over_sets(sets, make):
    """One backend's call over a case's buffer sets: `make(*set)` gives the call on one set (or None where there is none),
    and the result runs them in turn (rotating)."""
    return rotating([make(*b) for b in sets])


def norm_ab_fns(fi_norm, x, r, w, o) -> dict:
    """Ours and FlashInfer's fused_add_rmsnorm (x, r in place) and rmsnorm (x -> o), checks and PDL as the ops default
    them: the four calls the explore scripts that move buffers around compare (row_alignment.py, placement.py)."""
    return {'ours_fused': lambda: fused_add_rmsnorm(x, r, w, 1e-6),
            'fi_fused': lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False),
            'ours_rms': lambda: rmsnorm(x, w, 1e-6, out=o),
            'fi_rms': lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False)}


def norm_ab_line(t: dict) -> str:
    "One case's times from `norm_ab_fns`, FI/ours in parentheses, the fused op and rmsnorm side by side."
    return (f"ours fused {t['ours_fused']:6.2f} fi {t['fi_fused']:6.2f} ({t['fi_fused']/t['ours_fused']:.3f})   "
            f"ours rms {t['ours_rms']:6.2f} fi {t['fi_rms']:6.2f} ({t['fi_rms']/t['ours_rms']:.3f})")


def summarize(ts, stat='median'):
    """One number for `n` timings: their median, or (stat='trimmed') the mean of the middle 80 %. At decode sizes
    CUDA-event times fall on modes 0.16-0.22 us apart (benchmarks/explore/event_quantum.py), and a median snaps to one of
    them: a ratio of two ~5 us medians moves in ~4 % steps. The trimmed mean averages over the modes, so it resolves
    differences finer than a step while still dropping the outliers a mean would keep."""
    if stat == 'median': return statistics.median(ts)
    if stat != 'trimmed': raise ValueError(f"stat must be 'median' or 'trimmed', got {stat!r}")
    xs = sorted(ts); k = len(xs) // 10
    return statistics.fmean(xs[k:len(xs) - k])


def time_one(fn, flush, n, stat='median'):
    "Median (or trimmed mean, see summarize) µs of `n` single calls, each between CUDA events after an L2 flush."
    ts = []
    for _ in range(n):
        flush.zero_()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e) * 1e3)
    return summarize(ts, stat)


UNSTABLE = 1.25      # a backend whose slowest round median is this much above its fastest: the pass was unsteady
EXTRA_PASSES = 2     # at most this many more passes of `rounds` rounds after an unsteady one


def unsteady(per: dict) -> list:
    "The backends whose round medians spread by more than UNSTABLE (slowest / fastest)."
    return [b for b, v in per.items() if min(v) > 0 and max(v) / min(v) > UNSTABLE]


def compare(cases, flush, n, rounds, timer=None):
    """cases: [(label, {backend: fn})]; returns [(label, {backend: median over rounds of medians})]. A pass whose rounds
    disagree (a transient: another process, a clock change; once a copy kernel at 7x its time in every sample of one
    round) is followed by another, up to EXTRA_PASSES more; every round is kept and the median taken over all of them,
    so one bad round among several good ones does not decide. A case with no steady pass is marked '~'."""
    timer = timer or time_one
    out = []
    for label, fns in cases:
        for f in fns.values(): f()                        # warm-up (and module loads)
        torch.cuda.synchronize()
        per = {b: [] for b in fns}
        steady = False
        for _ in range(EXTRA_PASSES + 1):
            for _ in range(rounds):
                for b, f in fns.items(): per[b].append(timer(f, flush, n))
            if not unsteady({b: v[-rounds:] for b, v in per.items()}):
                steady = True
                break
        out.append((label + ('' if steady else ' ~'), {b: statistics.median(v) for b, v in per.items()}))
    return out


def call_boundary(fi_norm, fi_acts, rows=1, h=4096, inter=14336, dt=torch.bfloat16):
    """Host us per call (issue 19, goal 2), `rows` x `h` norms and `rows` x `inter` gated activations, out= given,
    interleaved rounds: each op with checks on, with skip_check, its bare module function, FlashInfer's module function
    (and torch where it has the op). The gated rows cover the activations whose FlashInfer module was loaded."""
    from flashinfer_nb.norm import get_norm_module
    from flashinfer_nb.op_jit import get_act_and_mul_module
    m = get_norm_module()
    x = torch.randn(rows, h, device='cuda', dtype=dt); w = torch.randn(h, device='cuda', dtype=dt)
    o = torch.empty_like(x); r = torch.randn_like(x)
    groups = {'rmsnorm': {'checks on': lambda: rmsnorm(x, w, 1e-6, out=o, enable_pdl=False),
                          'skip_check': lambda: rmsnorm(x, w, 1e-6, out=o, enable_pdl=False, skip_check=True),
                          'module function': lambda: m.rmsnorm(o, x, w, 1e-6, 0.0, 0, False),
                          'FlashInfer module function': lambda: fi_norm.rmsnorm(o, x, w, 1e-6, False),
                          'torch F.rms_norm': lambda: F.rms_norm(x, (h,), w, 1e-6)},
              # in place, as the op runs: the residual grows by one normalised row a call (no overflow in 10^5 calls)
              'fused_add_rmsnorm': {'checks on': lambda: fused_add_rmsnorm(x, r, w, 1e-6, enable_pdl=False),
                                    'skip_check': lambda: fused_add_rmsnorm(x, r, w, 1e-6, enable_pdl=False, skip_check=True),
                                    'module function': lambda: m.fused_add_rmsnorm(x, r, w, 1e-6, 0.0, 0, False),
                                    'FlashInfer module function': lambda: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, False)}}
    gu = torch.randn(rows, 2 * inter, device='cuda', dtype=dt); a_out = torch.empty(rows, inter, device='cuda', dtype=dt)
    for act_name, fi_mod in sorted(fi_acts.items()):
        ours, _, _ = ACTS[act_name]
        mf = getattr(get_act_and_mul_module(act_name), f'{act_name}_and_mul')
        fi_fn = getattr(fi_mod, f'{act_name}_and_mul')
        groups[f'{act_name}_and_mul'] = {
            'checks on': lambda f=ours: f(gu, out=a_out, enable_pdl=False),
            'skip_check': lambda f=ours: f(gu, out=a_out, enable_pdl=False, skip_check=True),
            'module function': lambda f=mf: f(a_out, gu, False),
            'FlashInfer module function': lambda f=fi_fn: f(a_out, gu, False)}
    lines = [f"host us per call, out= given, {str(dt)[6:]}, norms {rows}x{h}, gated {rows}x{inter}: each backend's median "
             "of 31 samples of 2000 calls, the backends in turns (flashinfer_nb.bench.bench_host_times); 'paired': the "
             "median of a backend's per-round differences from the module function, the Python layer's own cost (the "
             "goal: checks on within 1.5 us, skip_check within 0.5), which the host's drift between rounds does not move:"]
    for op, fns in groups.items():
        got = bench_host_times(fns, calls=2000, samples=31, warmup=300)
        base = got['module function']
        for k, v in got.items():
            paired = '' if k == 'module function' else \
                f"  paired {paired_us(v, base):+6.2f}"
            lines.append(f"  {op:<18} {k:<28} {1e3 * statistics.median(v):6.2f}{paired}")
    return lines


def pdl_chain(fi_norm, fi_act, rows_list, flush, n, rounds, h=4096, inter=14336, dt=torch.bfloat16, per_graph=20):
    """Programmatic dependent launch (issue 19, goal 3): fused_add_rmsnorm -> silu_and_mul -> rmsnorm back to back
    in one stream, ours and FlashInfer's, PDL off and on. Plain stream: CUDA events around the chain, L2 flushed
    before it. Graph: `per_graph` chains captured in one CUDA graph, events around a replay, divided by `per_graph`
    (L2 warm: the inputs stay resident)."""
    lines = [f"PDL chain fused_add_rmsnorm({h}) -> silu_and_mul({inter}) -> rmsnorm({h}), {str(dt)[6:]}, us per chain "
             f"(stream: median of {n} after an L2 flush; graph: {per_graph} chains per replay, L2 warm; median of {rounds} "
             "interleaved rounds)",
             f"{'rows':>5} {'ours off':>9} {'ours on':>9} {'FI off':>9} {'FI on':>9} | {'g ours off':>10} {'g ours on':>10} "
             f"{'g FI off':>10} {'g FI on':>10}"]
    for rows in rows_list:
        x, r = torch.randn(rows, h, device='cuda', dtype=dt), torch.randn(rows, h, device='cuda', dtype=dt)
        w = torch.randn(h, device='cuda', dtype=dt)
        gu = torch.randn(rows, 2 * inter, device='cuda', dtype=dt); act = torch.empty(rows, inter, device='cuda', dtype=dt)
        y = torch.empty_like(x)
        def ours(pdl):
            fused_add_rmsnorm(x, r, w, 1e-6, enable_pdl=pdl, skip_check=True)
            silu_and_mul(gu, out=act, enable_pdl=pdl, skip_check=True)
            rmsnorm(x, w, 1e-6, out=y, enable_pdl=pdl, skip_check=True)
        def fi(pdl):
            fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, pdl); fi_act.silu_and_mul(act, gu, pdl); fi_norm.rmsnorm(y, x, w, 1e-6, pdl)
        fns = {'ours off': lambda: ours(False), 'ours on': lambda: ours(True), 'FI off': lambda: fi(False), 'FI on': lambda: fi(True)}
        # the results agree with PDL on and off (same kernels, same order)
        res = {}
        for k, f in fns.items():
            x.copy_(r[:, :1].expand_as(x) * 0 + torch.arange(h, device='cuda', dtype=dt) / h); r.fill_(0.5)
            f(); torch.cuda.synchronize(); res[k] = (x.clone(), act.clone(), y.clone())
        for k in ('ours on', 'FI on'):
            assert all(torch.equal(a, b) for a, b in zip(res[k], res[k.replace('on', 'off')])), f"{rows} rows: {k} differs from off"
        graphs = {}
        for k, f in fns.items():
            f(); torch.cuda.synchronize()
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                for _ in range(per_graph): f()
            graphs[k] = g
        def graph_us(g):
            ts = []
            for _ in range(n):
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record(); g.replay(); e.record(); e.synchronize()
                ts.append(s.elapsed_time(e) * 1e3 / per_graph)
            return statistics.median(ts)
        per = {k: [] for k in fns}; gper = {k: [] for k in fns}
        for _ in range(rounds):
            for k, f in fns.items():
                per[k].append(time_one(f, flush, n)); gper[k].append(graph_us(graphs[k]))
        med = {k: statistics.median(v) for k, v in per.items()}; gmed = {k: statistics.median(v) for k, v in gper.items()}
        lines.append(f"{rows:>5} " + ' '.join(f"{med[k]:9.2f}" for k in fns) + ' | ' + ' '.join(f"{gmed[k]:10.2f}" for k in fns))
        print(lines[-1], flush=True)
    return lines


def pairs_bytes(dtypes, norm_pairs, act_pairs, n_acts):
    """Device bytes the table's buffers hold at once (every case stays allocated across the interleaved rounds): per norm
    shape (hidden, rows) x, out, residual and the two copy kernels' destinations (6 rows x d), per gated shape (d, rows)
    the input (2d), out (d) and the copy kernel's source clone and destination (3d); plus the 256 MB L2 flush buffer."""
    total = 256 << 20
    for dt in dtypes:
        es = torch.empty((), dtype=getattr(torch, dt)).element_size()
        total += sum(6 * r * h * es for h, r in norm_pairs)
        total += n_acts * sum(6 * r * d * es for d, r in act_pairs)
    return total


WIDTH_CLASSES = ('x8', 'x4', 'x2', 'odd')   # a multiple of 8 elements; of 4 but not 8; of 2 but not 4; odd


def draw_shapes(k, seed, widths=(64, 16384), inter=(64, 18944), rows=(1, 65536), max_elems=1 << 27):
    """k norm shapes and k gated shapes, (width, rows) pairs drawn at random (reproducible by `seed`), for sweeps over the
    class the issue names rather than its examples. Widths log-uniform in their range and moved into each width class
    in turn (`WIDTH_CLASSES`: every vector width's kernels, the peeled and single-element ones included); rows
    log-uniform, every other draw a decode batch (<= 256) and the rest past it, halved while rows x width passes
    `max_elems` (so a table fits the GPU). Returns (norm_pairs, act_pairs)."""
    if k < 1: raise ValueError(f"draw at least one shape, not {k}")
    for name, (lo, hi) in (('widths', widths), ('inter', inter)):
        if not 1 <= lo or hi - hi % 8 - 8 < lo - lo % 8 + 8:
            raise ValueError(f"{name} {lo}-{hi}: the range must hold a multiple of 8 with room for each width class "
                             f"(e.g. {lo}-{lo + 32})")
    rng = random.Random(seed)
    loguni = lambda lo, hi: int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))
    def width(lo, hi, i):
        w = max(lo - lo % 8 + 8, loguni(lo, hi) // 8 * 8)            # a multiple of 8 in range ...
        w = min(w, hi - hi % 8 - 8)
        return w + (0, 4, 2, 1)[i % len(WIDTH_CLASSES)]               # ... moved into class i (8 + 4: x4, 8 + 2: x2, + 1: odd)
    def row_count(i, w):
        dec, past = (rows[0], min(256, rows[1])), (max(257, rows[0]), rows[1])   # either may be empty for a narrow range
        r = loguni(*(dec if dec[0] <= dec[1] and (i % 2 == 0 or past[0] > past[1]) else past))
        while r > 1 and r * w > max_elems: r //= 2
        return r
    # the classes cycle with period 4 and the row ranges with period 2: offset the rows so each class sees both ranges
    norm = [(w, row_count(i + i // 4, w)) for i in range(k) for w in [width(*widths, i)]]
    act = [(d, row_count(i + i // 4, 3 * d)) for i in range(k) for d in [width(*inter, i)]]
    return norm, act


def check_memory(need, free, total):
    "Stop before allocating when the table cannot fit (a torch OOM halfway through, after the FlashInfer build, says less)."
    if need > 0.95 * free:
        sys.exit(f"the table's buffers need {need / 2**30:.1f} GiB at once, and the GPU has {free / 2**30:.1f} of "
                 f"{total / 2**30:.1f} GiB free: every case stays allocated across the interleaved rounds, so split the "
                 "shapes over several runs (fewer --rows or --hiddens per run)")


def verdict(res, goal=1.05):
    "Summary lines: how many cases at each FI/ours level, and of those under `goal`, how many the copy ceiling allows."
    rows = [t for label, t in res if 'flashinfer' in t and 'ours' in t]
    if not rows: return []
    r = [t['flashinfer'] / t['ours'] for t in rows]
    under = [t for t, x in zip(rows, r) if x < goal]
    bound = [t for t in under if 'copy' in t and t['flashinfer'] / t['copy'] < goal]
    return ['', f"{len(rows)} cases: {sum(x < 1.0 for x in r)} below 1.00x, {sum(1.0 <= x < goal for x in r)} at 1.00-{goal:.2f}x, "
                f"{sum(x >= goal for x in r)} at >= {goal:.2f}x (lowest {min(r):.2f}x); of the {len(under)} under {goal:.2f}x, "
                f"{len(bound)} have FI/copy < {goal:.2f} (even a kernel at the same-run copy time would not reach {goal:.2f}x)"]


def recheck(res, cases, times, rerun, goal=1.05, medians=None):
    """The cases of `res` under `goal` (FI/ours), each timed `times` more times by `rerun([(label, fns)])` (compare's
    result for that one case). One table's case under the goal can be a transient: on the H200, fused 256 x 3592 bf16
    was 1.00x in one table and 1.06-1.10x in three reruns right after (session 36). Lines: each case's FI/ours in the
    table and in every rerun, and their median; then how many stay under the goal by that median. `medians`, a dict,
    gets each rechecked case's median under its label (for `by_op`)."""
    fns = dict(cases)
    under = [(label.removesuffix(' ~'), t['flashinfer'] / t['ours']) for label, t in res
             if 'flashinfer' in t and 'ours' in t and t['flashinfer'] / t['ours'] < goal]
    if times <= 0 or not under: return []
    lines = ['', f"recheck: the {len(under)} cases under {goal:.2f}x timed {times} more times "
                 "(FI/ours in the table, then in each rerun; their median)"]
    still = 0
    for label, first in under:
        rs = [first] + [t['flashinfer'] / t['ours'] for _ in range(times) for _, t in rerun([(label, fns[label])])]
        med = statistics.median(rs)
        still += med < goal
        if medians is not None: medians[label] = med
        lines.append(f"{label:<36} " + ' '.join(f'{x:.3f}' for x in rs) + f"   median {med:.3f}")
    lines.append(f"{still} of {len(under)} stay under {goal:.2f}x by that median")
    return lines


def by_op(res, medians=None, goal=1.05, decode=256):
    """The verdict per op and row range: for each op, its decode rows (<= `decode`) and those past them, how many cases,
    how many under 1.00x and under `goal`, and the lowest FI/ours with its case. A rechecked case counts by its median
    (`medians`, from `recheck`), any other by the table's ratio. The issue's two bars, >= 1.00x everywhere and >= `goal`
    at decode, op by op."""
    medians = medians or {}
    groups, ops = {}, {}
    for label, t in res:
        if 'flashinfer' not in t or 'ours' not in t: continue
        name = label.removesuffix(' ~')
        op, shape = (name.split() + [''])[:2]
        try: past = int(shape.split('x')[0]) > decode
        except ValueError: continue                  # not 'OP ROWSx...': no row count to place it by
        x = medians.get(name, t['flashinfer'] / t['ours'])
        ops.setdefault(op, len(ops))
        groups.setdefault((op, past), []).append((x, name))
    if not groups: return []
    lines = ['', f"by op (decode: <= {decode} rows; a rechecked case by its median)"]
    for (op, past), xs in sorted(groups.items(), key=lambda kv: (ops[kv[0][0]], kv[0][1])):
        lo, case = min(xs)
        lines.append(f"{op:<24} {'past decode' if past else 'decode':<11} {len(xs):4d} cases: {sum(x < 1.0 for x, _ in xs):3d} "
                     f"under 1.00x, {sum(x < goal for x, _ in xs):3d} under {goal:.2f}x, lowest {lo:.3f}x ({case})")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--quick', action='store_true', help='fewer shapes')
    ap.add_argument('--n', type=int, default=60); ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--stat', choices=['median', 'trimmed'], default='median',
                    help="each round's statistic of its n calls (default median; 'trimmed': the mean of the middle 80 %%, "
                         "finer than a median at decode sizes, where event times fall on ~0.2 us steps)")
    ap.add_argument('--out', type=Path, help='also write the table here')
    ap.add_argument('--dtypes', nargs='+', default=['bfloat16', 'float16'])
    ap.add_argument('--hiddens', nargs='+', type=int, help='norm hidden sizes (default: 1536 ... 16384, 4100, 14338)')
    ap.add_argument('--rows', nargs='+', type=int, help='row counts (default: 1 ... 8192)')
    ap.add_argument('--inter', nargs='+', type=int, help='gated-activation output widths d (default: 8960 ... 7170)')
    ap.add_argument('--acts', nargs='+', default=['silu'], choices=list(ACTS), help='gated activations to time (default: silu)')
    ap.add_argument('--no-norm', action='store_true', help='skip the norm rows (e.g. with --acts gelu gelu_tanh)')
    ap.add_argument('--gemma', action='store_true',
                    help='also time gemma_rmsnorm and gemma_fused_add_rmsnorm (FlashInfer: GemmaRMSNorm, GemmaFusedAddRMSNorm) '
                         'at every norm shape')
    ap.add_argument('--qk', nargs='+', default=[], metavar='BxHxD',
                    help="also time rmsnorm on 3-D input (batch x heads x head_dim, FlashInfer's per-head QKRMSNorm kernel), "
                         "contiguous and as the query slice of a (batch, 2 x heads, head_dim) buffer (strided heads)")
    ap.add_argument('--no-host', action='store_true', help='skip the host-time-per-call section')
    ap.add_argument('--pdl-chain', nargs='+', type=int, metavar='ROWS',
                    help='also time fused_add_rmsnorm -> silu_and_mul -> rmsnorm with and without PDL at these row counts')
    ap.add_argument('--no-table', action='store_true', help='skip the per-kernel table (e.g. with --pdl-chain)')
    ap.add_argument('--pdl', action='store_true',
                    help="launch both libraries' kernels in the table with programmatic dependent launch (both ops' "
                         "default on sm_90+; the table's default is off for both)")
    ap.add_argument('--recheck', type=int, default=0, metavar='K',
                    help='time each case under 1.05x K more times (fresh rounds) and report the median of its ratios')
    ap.add_argument('--placements', type=int, default=1, metavar='P',
                    help="P sets of each norm and gated case's buffers at different addresses, every library's calls "
                         "taking them in turn (where the buffers sit moved a gated case by up to 2 %%, see buffer_sets); "
                         "default 1: one set")
    ap.add_argument('--draw', type=int, default=0, metavar='K',
                    help='instead of --rows/--hiddens/--inter: K norm and K gated shapes drawn at random (see draw_shapes: '
                         'widths 64-16384 of every divisibility class, rows 1-65536, half of them decode batches)')
    ap.add_argument('--seed', type=int, default=0, help='the seed of --draw (the table names it)')
    ap.add_argument('--draw-widths', type=int, nargs=2, metavar=('LO', 'HI'),
                    help="with --draw: the width range of both the norm rows and the gated rows' d (e.g. 1536 16384, the "
                         "issue's model widths; default 64-16384 and 64-18944)")
    a = ap.parse_args()
    if a.draw and (a.rows or a.hiddens or a.inter is not None):
        ap.error('--draw picks the shapes itself: leave out --rows, --hiddens and --inter')
    if a.draw_widths and not a.draw: ap.error('--draw-widths goes with --draw')
    hiddens = a.hiddens or ([4096, 14338] if a.quick else [1536, 2048, 4096, 5120, 7168, 8192, 16384, 4100, 14338])
    rows_list = a.rows or ([1, 32, 256, 8192] if a.quick else [1, 8, 32, 128, 256, 2048, 8192])
    inter = a.inter if a.inter is not None else ([14336, 14340] if a.quick else [8960, 14336, 18944, 14340, 7170])
    if a.draw:
        rng = {} if not a.draw_widths else dict(widths=tuple(a.draw_widths), inter=tuple(a.draw_widths))
        try: norm_pairs, act_pairs = draw_shapes(a.draw, a.seed, **rng)
        except ValueError as e: ap.error(str(e))
    else:
        norm_pairs, act_pairs = list(itertools.product(hiddens, rows_list)), list(itertools.product(inter, rows_list))
    if a.no_norm: norm_pairs = []
    qk_shapes = [tuple(int(v) for v in q.lower().split('x')) for q in a.qk]
    if any(len(q) != 3 or min(q) < 1 for q in qk_shapes): ap.error(f'--qk takes BxHxD shapes, got {a.qk}')
    if not a.no_table:
        check_memory(a.placements * pairs_bytes(a.dtypes, norm_pairs, act_pairs, len(a.acts)), *torch.cuda.mem_get_info())
    root = Path(os.environ.get('FLASHINFER_WHEEL_DIR', ''))
    fi_norm, fi_acts = fi_modules(root, sorted(set(a.acts) | ({'silu'} if a.pdl_chain else set())))
    from flashinfer_nb.magics import compile_cell
    copy_mod, rep = compile_cell('bench_copy2', COPY_CELL, progress=False)
    if copy_mod is None: sys.exit(f"the copy-ceiling kernel did not build:\n{rep.log}")
    flush = torch.empty(256 << 20, dtype=torch.uint8, device='cuda')
    pdl = a.pdl
    if pdl and torch.cuda.get_device_capability()[0] < 9: ap.error('--pdl needs sm_90 or newer')
    if a.placements < 1: ap.error(f'--placements takes a count of 1 or more, not {a.placements}')
    place_rng = random.Random(a.seed)   # the spacers between buffer sets (--placements)
    cases = []
    for dt in (a.dtypes if not a.no_table else []):
        dtype = getattr(torch, dt)
        for h, h_pairs in itertools.groupby(norm_pairs, key=lambda p: p[0]):
            w = torch.randn(h, device='cuda', dtype=dtype)
            for _, rows in h_pairs:
                sets = buffer_sets(lambda: (lambda x: (x, torch.empty_like(x), torch.randn_like(x)))(
                    torch.randn(rows, h, device='cuda', dtype=dtype)), a.placements, place_rng)
                each = functools.partial(over_sets, sets)   # one backend's call over the case's buffer sets
                plain = {'ours': each(lambda x, o, r: lambda w=w: rmsnorm(x, w, 1e-6, out=o, enable_pdl=pdl, skip_check=True)),
                         'flashinfer': each(lambda x, o, r: lambda w=w: fi_norm.rmsnorm(o, x, w, 1e-6, pdl)),
                         'torch': each(lambda x, o, r: lambda w=w, h=h: F.rms_norm(x, (h,), w, 1e-6))}
                if (cp := each(lambda x, o, r: copy_ceiling_fn(copy_mod, x))) is not None: plain['copy'] = cp
                cases.append((f"rmsnorm {rows}x{h} {dt}", plain))
                fused = {'ours': each(lambda x, o, r: lambda w=w: fused_add_rmsnorm(x, r, w, 1e-6, enable_pdl=pdl, skip_check=True)),
                         'flashinfer': each(lambda x, o, r: lambda w=w: fi_norm.fused_add_rmsnorm(x, r, w, 1e-6, pdl))}
                if (cp := each(lambda x, o, r: copy_ceiling_fn(copy_mod, x, r))) is not None: fused['copy'] = cp
                cases.append((f"fused_add_rmsnorm {rows}x{h} {dt}", fused))
                if a.gemma:
                    g = {'ours': each(lambda x, o, r: lambda w=w: gemma_rmsnorm(x, w, 1e-6, out=o, enable_pdl=pdl, skip_check=True)),
                         'flashinfer': each(lambda x, o, r: lambda w=w: fi_norm.gemma_rmsnorm(o, x, w, 1e-6, pdl))}
                    if 'copy' in plain: g['copy'] = plain['copy']
                    cases.append((f"gemma_rmsnorm {rows}x{h} {dt}", g))
                    gf = {'ours': each(lambda x, o, r: lambda w=w: gemma_fused_add_rmsnorm(x, r, w, 1e-6, enable_pdl=pdl,
                                                                                       skip_check=True)),
                          'flashinfer': each(lambda x, o, r: lambda w=w: fi_norm.gemma_fused_add_rmsnorm(x, r, w, 1e-6, pdl))}
                    if 'copy' in fused: gf['copy'] = fused['copy']
                    cases.append((f"gemma_fused_add_rmsnorm {rows}x{h} {dt}", gf))
        for b, heads, hd in qk_shapes:
            w = torch.randn(hd, device='cuda', dtype=dtype)
            for kind in ('contiguous', 'strided'):
                if kind == 'contiguous': x = torch.randn(b, heads, hd, device='cuda', dtype=dtype)
                else: x = torch.randn(b, 2 * heads, hd, device='cuda', dtype=dtype)[:, :heads]
                o = torch.empty_like(x)
                qk = {'ours': lambda x=x, w=w, o=o: rmsnorm(x, w, 1e-6, out=o, enable_pdl=pdl, skip_check=True),
                      'flashinfer': lambda x=x, w=w, o=o: fi_norm.rmsnorm(o, x, w, 1e-6, pdl)}
                try: qk['ours']()
                except ValueError: del qk['ours']   # a library without strided heads: FlashInfer's time alone
                if kind == 'contiguous' and (cp := copy_ceiling_fn(copy_mod, x)) is not None: qk['copy'] = cp
                cases.append((f"rmsnorm(qk) {b}x{heads}x{hd} {kind[:6]} {dt}", qk))
        for act_name in a.acts:
            ours_fn, ref_act, _ = ACTS[act_name]
            fi_fn = getattr(fi_acts[act_name], f'{act_name}_and_mul')
            for d, rows in act_pairs:
                sets = buffer_sets(lambda: (torch.randn(rows, 2 * d, device='cuda', dtype=dtype),
                                            torch.empty(rows, d, device='cuda', dtype=dtype)), a.placements, place_rng)
                each = functools.partial(over_sets, sets)
                act = {'ours': each(lambda x, o: lambda f=ours_fn: f(x, out=o, enable_pdl=pdl, skip_check=True)),
                       'flashinfer': each(lambda x, o: lambda f=fi_fn: f(o, x, pdl)),
                       'torch': each(lambda x, o: lambda d=d, g=ref_act: g(x[:, :d]) * x[:, d:])}
                if (cp := each(lambda x, o: copy_gated_fn(copy_mod, x, o))) is not None: act['copy'] = cp
                cases.append((f"{act_name}_and_mul {rows}x{d} {dt}", act))
    if cases:   # the floor of every latency-bound row: an empty kernel, timed the same way, before and after the table
        dummy = torch.empty(1, device='cuda')
        cases = [('empty kernel (floor)', {'ours': lambda: copy_mod.empty(dummy)})] + cases + \
                [('empty kernel (floor), again', {'ours': lambda: copy_mod.empty(dummy)})]
    timer = lambda f, fl, n: time_one(f, fl, n, a.stat)
    res = compare(cases, flush, a.n, a.rounds, timer=timer)
    # the lower of the two: a slow one (seen once at 25.8 us against 2.98 on the H100 machine) is not the floor
    floors = [t['ours'] for label, t in res if label.startswith('empty kernel')]
    floor = min(floors) if floors else None
    lines = [f"{torch.cuda.get_device_name()}; torch {torch.__version__}; FlashInfer 0.7.2.post1 kernels from {root}"]
    if a.draw:
        lines += [f"shapes drawn with --draw {a.draw} --seed {a.seed}" +
                  (f" --draw-widths {a.draw_widths[0]} {a.draw_widths[1]}" if a.draw_widths else '') + ": norm (rows x hidden) " +
                  ' '.join(f'{r}x{h}' for h, r in norm_pairs) + "; gated (rows x d) " + ' '.join(f'{r}x{d}' for d, r in act_pairs)]
    if cases:
        what = 'median' if a.stat == 'median' else 'mean of the middle 80 %'
        lines += [f"CUDA events around one call, 256 MB L2 flush before each, {what} of {a.n}, median of {a.rounds} interleaved "
                  f"rounds; PDL {'on' if pdl else 'off'} for both" +
                  (f"; each norm and gated case's buffers in {a.placements} sets at different addresses, every library's "
                   "calls taking them in turn (--placements)" if a.placements > 1 else ''),
                  "copy %: a 16-byte copy kernel moving the op's bytes (rmsnorm: x in, out; fused_add_rmsnorm: x and residual in, "
                  "both out; the gated activations: both halves in, one row out), timed in the same rounds, as a share of ours (100 = at "
                  "the same-run copy ceiling)",
                  f"floor: an empty kernel timed the same way, {floor:.2f} us (the lower of the first and last rows); "
                  "over floor: FI's time above it / ours above it (the kernels' own share, launch and events taken out)",
                  "FI/copy: FI's time / the copy's, the most FI/ours a kernel at the same-run copy ceiling would show",
                  f"a pass whose round medians spread by more than {UNSTABLE:.2f}x is followed by another (up to {EXTRA_PASSES} "
                  "more; the median over all rounds); '~': no steady pass",
                  f"{'case':<36} {'ours us':>8} {'FI us':>8} {'torch us':>9} {'FI/ours':>8} {'copy us':>8} {'copy %':>7} {'over floor':>10} {'FI/copy':>8}"]
    for label, t in res:
        if 'ours' not in t:
            lines.append(f"{label:<36} {'-':>8} {t['flashinfer']:8.2f}"); continue
        if 'flashinfer' not in t:
            lines.append(f"{label:<36} {t['ours']:8.2f}"); continue
        cp = f" {t['copy']:8.2f} {100 * t['copy'] / t['ours']:7.1f}" if 'copy' in t else f" {'':8} {'':7}"
        over = (t['flashinfer'] - floor) / (t['ours'] - floor) if t['ours'] > floor else float('nan')
        ceil = f" {t['flashinfer'] / t['copy']:8.2f}" if 'copy' in t else ''
        lines.append(f"{label:<36} {t['ours']:8.2f} {t['flashinfer']:8.2f} {t.get('torch', float('nan')):9.2f} "
                     f"{t['flashinfer'] / t['ours']:8.2f}{cp} {over:10.2f}{ceil}")
    if cases: lines += verdict(res)
    medians = {}
    if cases and a.recheck > 0:
        lines += recheck(res, cases, a.recheck, lambda cs: compare(cs, flush, a.n, a.rounds, timer=timer), medians=medians)
    if cases: lines += by_op(res, medians)
    if a.pdl_chain: lines += [''] + pdl_chain(fi_norm, fi_acts['silu'], a.pdl_chain, flush, a.n, a.rounds)
    if not a.no_host: lines += [''] + call_boundary(fi_norm, fi_acts)
    text = '\n'.join(lines)
    print(text)
    if a.out: a.out.write_text(text + '\n')


if __name__ == '__main__':
    main()
