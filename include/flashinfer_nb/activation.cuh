// Gated activations: out[r, j] = act(in[r, j]) * in[r, d + j] for an input row [a | b] of 2d.
//
// The activation is a functor with `static __device__ float apply(float)`, supplied by the caller
// (the JIT renders one per activation from csrc/act_and_mul.jinja), so one kernel serves SiLU, GELU,
// GELU-tanh or a user's own. Bytes: read 2d, write d per row, once each; compute in fp32, round once.
// Framework-agnostic: raw pointers, no torch or TVM-FFI headers.
#pragma once
#include <type_traits>

#include "activation_launch.h"
#include "vec.cuh"

namespace flashinfer_nb {

// sigmoid(x) = 1 / (1 + e^-x) with the fast exponential and the fast (approximate-reciprocal) divide: two MUFU ops
// and no IEEE divide. The built-in SiLU and GELU-tanh bodies use it (flashinfer_nb.op_jit.ACTIVATIONS); a user's own
// body may. Why: an IEEE `x / y` is MUFU.RCP, Newton steps and a range check that branches to a slow path (352 SASS
// instructions for a thread's 8 SiLUs against 152; benchmarks/explore/silu_decode_math.cu), and at decode that chain
// is the kernel's tail: 4.38 -> 4.06 us at 8 x 4096, 5.60 -> 5.47 at 128 x 4096, 6.82 -> 6.62 at 256 x 4096 (H100, CUDA
// events), the largest error after rounding to fp16/bf16 0.50 ulp either way (NVIDIA_H100_silu_decode_math_s29.txt).
// FlashInfer builds with -use_fast_math, which makes its `x / (1 + expf(-x))` this. The one range where it differs
// from an IEEE divide: for x below about -87.3, e^-x > 2^126 and the fast divide returns 0, so silu(x) = -0 where the
// exact value is below 1.2e-36 in magnitude (torch's own silu gives -0 below -88.7). +-inf and NaN come out as the IEEE
// form's (silu(-inf) = NaN, silu(inf) = inf).
__device__ __forceinline__ float sigmoid(float x) {
  float e;  // e^-x as 2^(-x log2 e), flushing a result below 2^-126 to 0 (1 + it is 1 either way): __expf without
            // -ftz=true wraps the MUFU in a range test, a halving and a squaring, two more dependent steps an element
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x * -1.44269504088896341f));
  return __fdividef(1.0f, 1.0f + e);
}

// GELU with the tanh approximation, 0.5 x (1 + tanh(u)) with u = sqrt(2 / pi) (x + 0.044715 x^3), as x sigmoid(2u) =
// x / (1 + 2^t), t = -2 u log2(e) = x (c1 + c2 x^2): the constants folded into one FMA and a multiply, then the fast
// exponential and divide as in sigmoid. Written as u, then sigmoid(2u) (until session 43), the chain from the load to
// the store held four more dependent multiplies (x^2, x^3, the two scalings), which at decode showed: GELU-tanh 0.98-0.99x
// FlashInfer's at 1-32 rows x 1536-2056 (H200), where SiLU, one exponential and divide too, was level. FlashInfer's
// tanh.approx.f32 is one MUFU op but has a relative error near 2^-11 in tanh, which 1 + tanh(u) magnifies for negative
// x (at x = -3 the result would be ~20 % off); this form keeps the error of the exponential and the divide.
__device__ __forceinline__ float gelu_tanh(float x) {
  constexpr float c1 = -2.302208198f;   // -2 sqrt(2 / pi) log2(e)
  constexpr float c2 = -0.1029432467f;  // c1 * 0.044715
  float e;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(x * fmaf(c2, x * x, c1)));
  return __fdividef(x, 1.0f + e);
}

namespace act_detail {

// An activation whose functor says `static constexpr bool kMathHeavy = true` (the built-in GELU, erf: about three
// times SiLU's instructions an element) takes more threads for narrow rows past decode (the launcher, session 60);
// a functor without the member is not heavy.
template <typename Act, typename = void>
struct math_heavy : std::false_type {};
template <typename Act>
struct math_heavy<Act, std::void_t<decltype(Act::kMathHeavy)>> : std::bool_constant<Act::kMathHeavy> {};

constexpr int kThreads = 256;
// past decode, the least threads a block of a split row of 257-512 vectors (session 66, dispatch)
constexpr int kMinSplitThreads = 104;
// past decode, where a grid runs kWideSplitFromBlocks+ blocks an SM: the least threads a block of the exact split of a
// row of 513+ vectors at a light activation (session 67, dispatch)
constexpr int kWideSplitThreads = 112, kWideSplitFromBlocks = 256;
constexpr int kSharedRowMaxWork = 80, kSharedRowFromSms = 48;  // wider rows that share a block (session 58, dispatch)
constexpr int kSharedMinSmBlocks = 2;  // the fewest blocks an SM a grid of rows that share blocks keeps (session 68)
// one vector a thread's 4-element rows (sessions 64 and 66, dispatch): warps an SM the grid may hold; rows of 6-8 warps
// (161-256 vectors) whose last warp has 16+ busy lanes (kFullMidQuadsWarps), other 6-8 warp rows, the rest
constexpr int kLightQuadsMinVecs = 145, kLightQuadsWarps = 144, kMidQuadsWarps = 256, kFullMidQuadsWarps = 384;

// Grid: one block per (row, chunk of blockDim * kPer vectors along the row): chunk on grid.x, row on grid.y (and
// grid.z past 65535 rows), so the scheduler's order (x fastest) is row-major and the blocks in flight at once read
// neighbouring memory. (Until session 28 a flat grid.x, the row found by dividing blockIdx.x by the row's block
// count: a 32-bit integer division is ~20 dependent instructions ahead of the first load, 51 instructions before the
// first LDG vs 22 without; at decode that chain is the kernel (0.13-0.17 us of 5-6 us on the H100,
// benchmarks/results/NVIDIA_H100_silu_decode_mapping_s28.txt). The other way round, x = rows and y = chunks, the
// scheduler's order spread the blocks in flight over rows 2d elements apart: 1-4 % slower at 8192 rows on the H200
// (172.7 vs 168.7 us at 8192 x 14336 bf16, 183.6 vs 176.9 at 8192 x 14340). Streaming stores (st.global.cs) on top
// changed nothing beyond noise, and would push the output out of L2 before the next kernel reads it.
// Every thread moves kPer vectors of a, of b and of out (strided by the block, so a warp's accesses stay
// coalesced), kPer * kVec * sizeof(T) = 16 bytes of each: a narrow vector (a d that is not a multiple of 16
// bytes) keeps as many bytes in flight per thread as the 16-byte one. One 4-byte vector per thread took 1.24x
// FlashInfer's time at 8192 x 7170 bf16 (kPer = 4 here). At decode batches (rows <= 2 x the SMs) kPer = 1:
// more, shorter threads finish the latency-bound launch sooner. Short blocks keep the block scheduler feeding
// every SM to the end (the lesson from scale, NOTES.md).
// kExact: one grid.z slab (kSlabs: see there) and the row's blocks cover its vectors exactly (blocks x threads ==
// d / kVec, one vector a thread), so the kernel tests neither the row nor the vector index and makes one pass. Those
// tests sat on the chain before the first load: two constant loads, compares and exits, and the pointers' constant
// loads only after them (the first LDG was the 44th instruction, now the 22nd). H100, one process, bits unchanged:
// 1.1-3.1 % faster at 1-256 rows x 4096, 8960 and 14336, 0.2-0.8 % at 2048 rows; 18944 (2368 vectors, 10 blocks of
// 256) has no exact fit (NVIDIA_H100_lib_ab_exact_s31.txt).
// kPacked: rows of one block's width or less past decode, blockDim.y of them a block (blockDim.x threads a row, a power
// of two up to 32 or whole warps, so a warp holds whole rows); see the launcher.
// kBound: the launch bound, 2 kThreads for the one-block decode rows of 257-512 vectors (see the launcher).
// kSlabs (with kExact): more rows than grid.y holds (65535). Rows of one block go on grid.x (2^31 - 1), the block
// the row, as FlashInfer lays them out; rows of more on grid.z slabs of grid.y rows (row = z x grid.y + y), the last
// slab's last rows past the end (a test uniform for the block). Until session 42 both took the tested kernel on the
// slabs, and GELU ran 11-17 % slower there than at its own rate at 65535 rows, where SiLU kept the copy's (65536 x
// 4096 bf16: GELU 413 us, SiLU 371; at 65535 rows both 371). H200, lib_ab, SiLU and GELU, both dtypes, bits unchanged
// (NVIDIA_H200_lib_ab_slabs_s42.txt), 65536-131072 rows: this GELU +5 to +6 % on one-block rows (1536, 2048), +2.4 to
// +4.7 % on the others; SiLU +-0.2 %. Faster still for GELU but not taken, as each cost SiLU, at the copy's time there
// and level with FlashInfer: one launch a slab (GELU +8 to +16 %, SiLU -0.2 to -2.6 %, the gaps between launches);
// a 2D grid whose block y takes rows y, y + grid.y, ... (GELU +7 to +14 %, SiLU 0 to -1.2 %).
// Session 67: 16-bit GELU at the widest vector now takes one launch a slab (the launcher), as GELU only.
template <typename T, typename Act, int kVec, int kPer, bool kExact = false, bool kPacked = false,
          int kBound = kThreads, bool kSlabs = false>
__global__ void __launch_bounds__(kBound)
    ActAndMulKernel(const T* __restrict__ in, int64_t in_stride, T* __restrict__ out, int64_t out_stride,
                    int d, int64_t rows) {
  using V = VecN<T, kVec>;
  const int nvec = d / kVec;
  auto in_row = [nvec](int i) { return kExact || i < nvec; };
  auto one_row = [&](int64_t r) {
    const int chunk = kSlabs && gridDim.y == 1 ? 0 : static_cast<int>(blockIdx.x);  // kSlabs: see below
    const T* row = in + r * in_stride;
    const V* pa = reinterpret_cast<const V*>(row);
    const V* pb = reinterpret_cast<const V*>(row + d);
    V* po = reinterpret_cast<V*>(out + r * out_stride);
    const int span = gridDim.x * blockDim.x * kPer;  // vectors one pass of the row's blocks covers
    pdl_wait();  // PDL: read the input (and write out) only once the kernel before has finished
    // One pass, except where the launcher folded a near-empty last block into the row's others: then the first
    // threads take the few vectors left in a second pass.
    for (int base = chunk * blockDim.x * kPer + threadIdx.x; in_row(base); base += span) {
      V a[kPer], b[kPer];
#pragma unroll
      for (int k = 0; k < kPer; ++k) {
        const int i = base + k * blockDim.x;
        if (in_row(i)) {
          a[k] = pa[i];
          b[k] = pb[i];
        }
      }
      pdl_launch_dependents();  // PDL: the next kernel's blocks may launch (and wait) while these loads land
#pragma unroll
      for (int k = 0; k < kPer; ++k) {
        const int i = base + k * blockDim.x;
        if (in_row(i)) {
          V o;
          convert_pairs(o, [&](int j) { return Act::apply(to_float(a[k].data[j])) * to_float(b[k].data[j]); });
          po[i] = o;
        }
      }
      if constexpr (kExact) break;  // one pass: the row's blocks cover it exactly
    }
  };
  if constexpr (kSlabs) {
    if (gridDim.y == 1) {  // one block a row: the row is the block (grid.x = rows)
      one_row(blockIdx.x);
    } else {  // grid.z slabs of grid.y rows; the last slab's last rows (gz - 1 at most) are past the end
      const int64_t r = static_cast<int64_t>(blockIdx.z) * gridDim.y + blockIdx.y;
      if (r < rows) one_row(r);
    }
  } else {
    const int64_t slab_row = static_cast<int64_t>(blockIdx.z) * gridDim.y + blockIdx.y;
    const int64_t r = kExact    ? static_cast<int64_t>(blockIdx.y)
                      : kPacked ? slab_row * blockDim.y + threadIdx.y
                                : slab_row;
    if (!kExact && r >= rows) return;  // only past 65535 rows: the last slab's last gz - 1 rows at most
    one_row(r);
  }
}

// Rows whose vectors cannot be aligned (an odd d, or a view at an odd offset): the widest vector that divides the
// row was one element, and one element a thread (or eight, strided) made the kernel issue-bound, not memory-bound:
// 53 instructions an element against 17 with 16-byte vectors; at 7687 x 1425 fp16, 33.0 us under Nsight Compute
// against 17.0 at 1424 wide, DRAM 35 % busy, 77 % of scheduler cycles issuing (ncu_*_s40.txt). FlashInfer's kernel
// is there too. Here each thread writes one 16-byte vector of the output, at a 16-byte boundary of its row, and reads
// each operand's matching elements as the two aligned 16-byte vectors that hold them, shifted into place with byte
// permutes (the second vector is the next thread's first: an L1 hit, DRAM bytes unchanged). The shift is the same
// for the whole row (an operand's offset from the output's alignment), so the branch on it is uniform. The row's
// first and last few elements, short of a whole vector or past a load that stays inside the row, are single
// elements, one a thread, taken by the threads past the vectors (the launch adds 4 vectors' worth: first warp of the
// row's first block taking the head and tail as well as its vectors was 0.2-0.4 us slower at 1-256 rows, lib_ab).
// Every load lies inside the row's 2d inputs; nothing outside the row's d outputs is written. (The second vector by a
// warp shuffle instead of a load: up to 0.3 us faster at 1-256 rows, 5-8 % slower at 4000-16384 rows; not taken.)
template <typename T>
struct Shifted {
  static constexpr int kV = 16 / sizeof(T);  // elements a 16-byte vector
  // elements of p past the 16-byte boundary below it
  static __device__ __forceinline__ int offset(const T* p) {
    return static_cast<int>((reinterpret_cast<uintptr_t>(p) / sizeof(T)) % kV);
  }
  template <int kQ>
  static __device__ __forceinline__ void take(const uint32_t (&w)[8], uint32_t sel, uint32_t (&r)[4]) {
#pragma unroll
    for (int i = 0; i < 4; ++i) r[i] = __byte_perm(w[kQ + i], w[kQ + i + 1], sel);
  }
  // The two aligned 16-byte vectors around the 16 bytes at p, which sits k elements past a 16-byte boundary (k > 0;
  // the second only then): the loads, issued before anything waits on them (a shift straight after each operand's
  // loads put a second DRAM round trip on the chain, +0.5-0.9 us at decode)
  struct Raw {
    uint4 lo, hi;
  };
  static __device__ __forceinline__ Raw fetch(const T* p, int k) {
    const uint4* c = reinterpret_cast<const uint4*>(p - k);
    Raw raw;
    raw.lo = c[0];
    raw.hi = k ? c[1] : raw.lo;
    return raw;
  }
  // r = the 16 bytes at p (k as for fetch, uniform across the row)
  static __device__ __forceinline__ void shift(const Raw& raw, int k, uint32_t (&r)[4]) {
    const uint32_t w[8] = {raw.lo.x, raw.lo.y, raw.lo.z, raw.lo.w, raw.hi.x, raw.hi.y, raw.hi.z, raw.hi.w};
    const int byte = k * static_cast<int>(sizeof(T));
    const uint32_t sel = (byte & 3) ? 0x5432u : 0x3210u;  // 2 bytes on (16-bit types at an odd element), or none
    switch (byte >> 2) {
      case 0: take<0>(w, sel, r); break;
      case 1: take<1>(w, sel, r); break;
      case 2: take<2>(w, sel, r); break;
      default: take<3>(w, sel, r); break;
    }
  }
};

template <typename T, typename Act>
__global__ void __launch_bounds__(kThreads)
    ActAndMulShiftedKernel(const T* __restrict__ in, int64_t in_stride, T* __restrict__ out, int64_t out_stride,
                           int d, int64_t rows) {
  using S = Shifted<T>;
  constexpr int kV = S::kV;
  using V = VecN<T, kV>;
  const int64_t r = static_cast<int64_t>(blockIdx.z) * gridDim.y + blockIdx.y;
  if (r >= rows) return;
  const T* a = in + r * in_stride;
  const T* b = a + d;
  T* o = out + r * out_stride;
  const int j0 = (kV - S::offset(o)) % kV;        // the first output element at a 16-byte boundary
  const int ka = S::offset(a + j0), kb = S::offset(b + j0);
  // a vector at j reads elements [j - k, j - k + 2 kV) of an operand (k > 0) or [j, j + kV): inside [0, d)
  const int reach = max(ka ? 2 * kV - ka : kV, kb ? 2 * kV - kb : kV);
  const int v_lo = j0 >= max(ka, kb) ? 0 : 1;
  const int v_hi = d - j0 - reach >= 0 ? (d - j0 - reach) / kV + 1 : 0;
  const int nv = max(v_hi - v_lo, 0);
  const int j_lo = j0 + v_lo * kV, j_hi = nv > 0 ? j0 + v_hi * kV : j_lo;
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = j0 + (v_lo + g) * kV;
  const bool vec = g < nv;
  // the threads past the vectors take the single elements, head then tail (the launch gives them 4 vectors' worth)
  const int e = g - nv < j_lo ? g - nv : j_hi + (g - nv - j_lo);
  const bool one = !vec && e < d;
  pdl_wait();  // PDL: read the input (and write out) only once the kernel before has finished
  union {
    uint32_t w[4];
    V v;
  } va, vb;
  T sa, sb;
  typename S::Raw ra, rb;
  if (vec) ra = S::fetch(a + j, ka), rb = S::fetch(b + j, kb);
  if (one) sa = a[e], sb = b[e];
  pdl_launch_dependents();  // PDL: the next kernel's blocks may launch (and wait) while these loads land
  if (vec) {
    S::shift(ra, ka, va.w);
    S::shift(rb, kb, vb.w);
    V res;
    convert_pairs(res, [&](int i) { return Act::apply(to_float(va.v.data[i])) * to_float(vb.v.data[i]); });
    *reinterpret_cast<V*>(o + j) = res;
  } else if (one) {
    o[e] = from_float<T>(Act::apply(to_float(sa)) * to_float(sb));
  }
}

}  // namespace act_detail

// out (rows x d, row stride out_stride) = Act(in[:, :d]) * in[:, d:] (rows x 2d, row stride in_stride).
// Vectors of the widest of 16 / sizeof(T), half that, a quarter, or 1 element that divides d, both strides
// and both pointers' alignment (a d that is a multiple of 4 but not 8 took 1.7x FlashInfer's time when it
// fell straight to single elements). pdl: programmatic dependent launch (sm_90+ only; the binding checks).
template <typename T, typename Act>
cudaError_t ActAndMulLauncher(const T* in, int64_t in_stride, T* out, int64_t out_stride, int64_t rows, int d,
                              bool pdl, int hint, cudaStream_t stream) {
  using namespace act_detail;
  if (rows <= 0 || d <= 0) return cudaSuccess;
  if (rows > 0x7fffffff) return cudaErrorInvalidValue;  // the bindings' limit (grid.y x grid.z holds 65535^2)
  constexpr int kMaxVec = 16 / sizeof(T);
  auto fits = [&](int vec) {
    const int bytes = vec * static_cast<int>(sizeof(T));
    return d % vec == 0 && in_stride % vec == 0 && out_stride % vec == 0 && is_aligned(in, bytes) &&
           is_aligned(out, bytes);
  };
  const int vec = fits(kMaxVec) ? kMaxVec : fits(kMaxVec / 2) ? kMaxVec / 2 : fits(kMaxVec / 4) ? kMaxVec / 4 : 1;
  // Session 67: a math-heavy activation (16-bit GELU) at the widest vector past 65535 rows is one launch a slab of the
  // rows (the fewest even slabs of at most 65535), each under this launcher's rule for its own rows on a grid of one z,
  // not grid.z slabs (kSlabs at the kernel): GELU had run 11-17 % under its own rate there (session 42), and
  // FlashInfer's one launch was ahead (65536 x 4120 bf16 0.968x). H200, lib_ab, GELU, 4 buffer sets, bits unchanged
  // (NVIDIA_H200_lib_ab_act_gelu_slabs_s67.txt, bf16 and fp16 1536, cut short by its time limit): 65536-131072 rows x
  // 1536 +1.5 to +3.1 %, 4096 +7.5 to +7.9 %, 14336 +8.9 to +9.2 %; narrower vectors lost (4100, 4-element: -0.9 to
  // -1.0 %; 4099, the shifted kernel: -0.7 to -0.8 %), so not them; SiLU (unchanged) +-0.1 % (..._silu_s67.txt). In the
  // module against FlashInfer (NVIDIA_H200_gated_gelu_65536_before_s67.txt, ..._gated_gelu_slabs_65536_s67.txt: 65536 x
  // 4120-4600, both dtypes): 0.968-1.06x -> 1.11-1.21x (4120 bf16 472 -> 413 us).
  if constexpr (math_heavy<Act>::value && sizeof(T) == 2)
    if (vec == kMaxVec && rows > 65535) {
      const int64_t slab = ceil_div(rows, ceil_div(rows, int64_t{65535}));
      for (int64_t r = 0; r < rows; r += slab)
        if (const cudaError_t e = ActAndMulLauncher<T, Act>(in + r * in_stride, in_stride, out + r * out_stride,
                                                           out_stride, std::min(slab, rows - r), d, pdl, hint, stream);
            e != cudaSuccess)
          return e;
      return cudaSuccess;
    }
  // a tuned choice (activation_launch.h): block threads up to kThreads, one vector or 16 bytes per thread, or the
  // shifted kernel
  const int hint_threads = (hint / 10) * 32, hint_per = hint % 10;
  if (hint != 0 && (hint < 0 || hint_threads < 32 || hint_threads > kThreads || hint_per < 1 || hint_per > 3))
    return cudaErrorInvalidValue;
  // A row's work over `blocks` blocks, shared evenly (warp-rounded): the threads a block
  auto even_threads = [](int64_t work, int64_t blocks) {
    return static_cast<int>(ceil_div(ceil_div(work, blocks), int64_t{32}) * 32);
  };
  // A row's work in a block it shares with other rows: the power of two at or above it up to 32, else whole warps (so a
  // warp holds whole rows): blockDim.x of the shared-rows launch below
  auto shared_row_threads = [](int64_t work) {
    if (work > 32) return ceil_div(work, int64_t{32}) * 32;
    int64_t t = 1;
    while (t < work) t *= 2;
    return t;
  };
  // The grid: `blocks` a row on x, blocks of rows on grid.y (<= 65535) and grid.z, split evenly over the fewest slabs:
  // at most z - 1 rows' blocks past the last row, which return at once. (Session 28 filled grid.y to 65535 first:
  // 65536 rows made a second slab of 65535 rows with one real one, 262k blocks that did nothing but be scheduled,
  // silu_and_mul 65536 x 14336 bf16 2109 us against FlashInfer's 1887 on the H100,
  // benchmarks/results/NVIDIA_H100_issue19_rows65536_s29.txt.)
  auto grid_of = [](int64_t blocks, int64_t row_blocks) {
    const int64_t gz = ceil_div(row_blocks, int64_t{65535}), gy = ceil_div(row_blocks, gz);
    return dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(gy), static_cast<unsigned>(gz));
  };
  // Single elements (an odd d, or a view at an odd offset) in rows of more than 64 vectors: the shifted kernel, one
  // 16-byte output vector a thread, the row's blocks sharing its vectors evenly. From 2^18 elements in all at 128+
  // vectors a row, 2^19 under. H200, lib_ab (silu), both dtypes, bits unchanged
  // (NVIDIA_H200_lib_ab_shifted_s40.txt): 256-16384 rows x 1025-14337 +3.8 % to 2x, 4000-16384 x
  // 513-641 +10 to +22 %, 64 x 14337 +34 %; decode_configs.py, silu and gelu bf16 at 264-4000 rows x 513-1023
  // (NVIDIA_H200_decode_configs_odd_mid_s40.txt): from 2^19 elements -1.0 % (silu 1000 x 641) to +13 % (gelu 2000 x
  // 513), at 264 rows -5 to -9 % (gelu 1023, 513). Not below: the single-element kernels, many more threads, finish a
  // latency-bound launch sooner (1-64 rows -3.5 to -16 %), nor at 64 vectors or fewer, whose rows share blocks (16384 x
  // 385 -18 %). A tuned hint keeps the kernels it names (+ 3: this one).
  const int64_t shifted_from = int64_t{1} << (d >= 128 * kMaxVec ? 18 : 19);
  const bool shifted =
      hint != 0 ? hint_per == 3 : vec == 1 && d > 64 * kMaxVec && rows * d >= shifted_from;
  if (shifted) {
    if (d <= 8 * kMaxVec) return cudaErrorInvalidValue;  // its head and tail need 8 vectors a row
    const int64_t work = d / kMaxVec + 4 * kMaxVec;  // the row's aligned vectors, then its single elements
    const int64_t blocks = ceil_div(work, int64_t{hint != 0 ? hint_threads : kThreads});
    return launch_kernel(ActAndMulShiftedKernel<T, Act>, grid_of(blocks, rows), dim3(even_threads(work, blocks)),
                         stream, pdl, in, in_stride, out, out_stride, d, rows);
  }
  int sms = 0;
  const bool decode = hint == 0 && get_sm_count(&sms) == cudaSuccess && rows <= 2 * static_cast<int64_t>(sms);
  // Narrow vectors (d not a multiple of 16 bytes) in rows of at most one block's vectors, past decode up to 7 x the
  // SMs (8 x for rows of 128+ vectors): one vector a thread too, the block exactly the row (the exact kernel), as at
  // decode. 16 bytes a thread made blocks of a few busy threads, each waiting on 4-8 loads of each half in a row.
  // H200, lib_ab, both dtypes (NVIDIA_H200_lib_ab_narrow_rows_s39.txt): 300-600 rows x 73-498 wide +2 to +15 %;
  // 529-700 x 82-148 +1 to +8 %, 827-924 -2 to +4 %; 529-1056 x 314 and 498 +1 to +6 %. Past that, rows share blocks
  // (below).
  // Session 46: 16-bit rows of 257-512 narrow vectors too (odd 257-511 wide, 514-1022, 1028-2044) up to 6 x the SMs,
  // as one block of exactly the row's vectors (the 2 x kThreads kernel, as at decode). They had a block of 64-128
  // threads a row, 16 bytes a thread: H200, lib_ab, both dtypes, SiLU / GELU / GELU-tanh
  // (NVIDIA_H200_lib_ab_odd_short_s46.txt), 300-700 rows x 313-2044 wide -0.6 to +20 % (457 x 300 +18 %, 1022 x 700
  // SiLU -0.5 / +0.6 %); at 1000 rows x 770 and 1022 (4-byte vectors) SiLU and GELU-tanh -1.3 to -2.8 %, the rest
  // -0.7 to +7.7 %, hence 6 x, not 8 x.
  const int64_t narrow_rows = (d / vec >= 128 ? 8 : 7) * static_cast<int64_t>(sms);
  // Session 60: an activation with several times SiLU's math an element (math_heavy: GELU, erf) keeps one vector a
  // thread, one block of exactly the row, further out for 16-bit rows of 129-512 4-element vectors (516-2044 wide with
  // d % 8 == 4): to 64 x the SMs up to 384 vectors, 24 x past. With 8 or 16 bytes a thread its narrow rows made one
  // wave whose threads each waited on their loads and then ran 2-8 erf bodies in a row, the math after the bytes
  // rather than beside them; FlashInfer's one element a thread over a grid of several waves hid it (GELU 2893 x 361
  // 0.979x its time, H200 draw seed 94). H200, lib_ab, GELU both dtypes, outputs identical
  // (NVIDIA_H200_lib_ab_gelu_heavy_s60.txt, ..._gelu_heavy_bounds_s60.txt): 1100-8192 rows x 516-1540 +1 to +12 %,
  // 1796 -0.9 to +3.9 %; 2044 lost 1.5-4.3 % past 3000 rows at 64 x (so 24 x past 384 vectors). Rows of 128 vectors
  // or fewer share blocks there instead (below; not measured with this rule, not changed).
  // Session 64: the other activations (SiLU, GELU-tanh) too for rows of kLightQuadsMinVecs-512 4-element vectors
  // (580-2044 wide), while the grid of such rows holds at most kLightQuadsWarps warps an SM (2.25 waves of 64): there
  // 16 bytes a thread had left half the threads each two loads of each half in a row (silu 2338 x 748 fp16 0.985x
  // FlashInfer's time, GELU-tanh 0.974x, H200 draw seed 102). H200, lib_ab, SiLU and GELU-tanh, both dtypes, outputs
  // identical (NVIDIA_H200_lib_ab_act_quads_s64.txt, 1000-32768 rows x 516-2044): inside that bound -0.3 to +5.1 %
  // (124 cases; 2338 x 748 +3.0 to +4.0 %); between it and GELU's bounds -15.2 to +4.5 % (losses at 2000-8192 rows);
  // at 129 vectors (516, 31 of its last warp's 32 lanes idle) -0.8 to -3.4 % from 2000 rows, so not below 145.
  // Session 66: rows of 6-8 warps (161-256 vectors, 644-1024 wide) keep one vector a thread further: to 384 warps an
  // SM (6 waves, kFullMidQuadsWarps) where the row's last warp has 16+ busy lanes (748, 1004, 1020: 27-32), to 256
  // (4 waves, kMidQuadsWarps) where it has fewer (644, 780, 900: 1-3 busy lanes). Timed with 4 buffer sets taken in
  // turn: session 64's bound came from one allocation, and where the buffers sit moves a gated case by up to 2 %.
  // In the op module against FlashInfer's (gated_context.py --hints 0 81: the rule against one vector a thread at
  // FlashInfer's launch, d / 4 threads; H200, SiLU and GELU-tanh, both dtypes; NVIDIA_H200_gated_hints*_s66.txt): in
  // the 56 measured cases this reaches past a 3.5-wave bound one vector -0.5 to +3.0 % (FlashInfer's time over ours
  // 0.976-1.007x by 16 bytes a thread, 0.997-1.013x by one vector: 3800 x 1004 / 1020, 4600 x 780 / 964, 6000 x 748);
  // past these bounds 16 bytes wins or ties (748 x 12000 +1.2 to +2.2 %, 1004 / 1020 x 8192 +0.4 to +1.3 %, 644 x
  // 6000 +2.4 %; FlashInfer 1.001-1.074x). 5-warp rows (580 / 620) lose 1.8-3.9 % by one vector from 4000 rows (their
  // 2.25-wave bound stays). lib_ab (NVIDIA_H200_lib_ab_act_quads_placed_s66.txt, ..._mid_quads_fi_s66.txt, 4 sets)
  // agreed to 3.5 waves (the 108 cases a bound of 224 reached: mean +0.8 %) but put one vector ~1 % behind at 1004 x
  // 6000, where the module puts it ~1 % ahead; the module is what a caller runs.
  constexpr bool kHeavy = math_heavy<Act>::value && sizeof(T) == 2;
  const int64_t nvec = d / vec;
  const bool quads = sizeof(T) == 2 && vec == kMaxVec / 2 && nvec <= 2 * kThreads;
  const bool heavy_quads = kHeavy && quads && nvec > 128;
  const bool light_quads = !kHeavy && quads && nvec >= kLightQuadsMinVecs;
  const int light_quads_warps = nvec <= 160 || nvec > kThreads      ? kLightQuadsWarps  // warps an SM (light_quads)
                                : nvec % 32 == 0 || nvec % 32 >= 16 ? kFullMidQuadsWarps
                                                                    : kMidQuadsWarps;
  const int64_t latency_rows = heavy_quads   ? (nvec <= 384 ? 64 : 24) * static_cast<int64_t>(sms)
                               : light_quads ? light_quads_warps * static_cast<int64_t>(sms) /
                                                   ceil_div(nvec, int64_t{32})
                               : nvec <= kThreads ? narrow_rows
                                                  : 6 * static_cast<int64_t>(sms);
  const bool narrow_latency = hint == 0 && !decode && vec < kMaxVec && sms > 0 &&
                              (nvec <= kThreads || (sizeof(T) == 2 && nvec <= 2 * kThreads)) &&
                              rows <= latency_rows;
  const bool one = hint != 0 ? hint_per == 1 : decode || narrow_latency;
  int per = one ? 1 : kMaxVec / vec;  // vectors per thread: 16 bytes of each operand
  // Past narrow_rows, 16-bit rows of at most 2 x kThreads narrow vectors take 8 bytes of each operand a thread (half
  // the vectors, twice the threads) while the grid so made stays within 5 x kThreads threads an SM (one wave, room
  // to spare); past that, 16 bytes. 16 bytes a thread there left ~1.4 blocks an SM at 1441 x 249 and every thread 8
  // elements of math in a row: GELU 0.96 x FlashInfer on the H100 (session 45). H200, lib_ab, both dtypes, SiLU / GELU
  // / GELU-tanh, 1100-8000 rows x 73-501 wide of 1-, 2- and 4-element vectors (NVIDIA_H200_lib_ab_odd_short_s46.txt):
  // half the bytes +2 to +11 % inside the bound (GELU 249 x 1100 +8 %), and -5 to -20 % past it (135 x 3500, 460 x
  // 8000), hence the bound. After, against FlashInfer: GELU 1441 x 249 1.012-1.025x on the H100 (was 0.960), 1.06x on
  // the H200 (NVIDIA_H*_bench_odd_short_s46.txt). The H100 gains from 8 bytes further out (457-460 wide to 3500 rows,
  // where the H200 loses): NOTES.md, session 46.
  if (sizeof(T) == 2 && hint == 0 && !decode && !one && rows > narrow_rows && vec < kMaxVec && sms > 0 &&
      d / vec <= 2 * kThreads) {
    const int64_t half_work = ceil_div(d / vec, per / 2);  // threads a row needs at 8 bytes of each operand
    const int64_t row_threads = shared_row_threads(half_work);
    // Session 60: a math-heavy activation's single-element rows (odd 161-512) take 8 bytes a thread to 24 x, where the
    // row's threads at 4 elements each fill 3/4 of its warp-rounded block (odd 189-255 and 285-511): the math after
    // one wave of loads again (above). H200, lib_ab, GELU both dtypes (same files): 1500-8192 rows +1 to +9.4 % at
    // 193-511, -2.7 to -1.4 % at 289-301 x 5000-6000; rows that fill less (161-187, 257-283; 277: 70 of 96 threads)
    // -7 to +6 %, so not them.
    const bool heavy_singles =
        kHeavy && vec == 1 && d > 160 && 4 * half_work >= 3 * row_threads;
    if (rows * row_threads <= (heavy_singles ? 24 : 5) * kThreads * static_cast<int64_t>(sms)) per /= 2;
  }
  const int64_t work = ceil_div(d / vec, per);       // threads a row needs
  // a short row gets a block no wider than it (rounded to a warp) rather than 256 mostly idle threads
  const int cap = hint != 0 ? hint_threads : kThreads;
  int threads = static_cast<int>(std::min<int64_t>(cap, ceil_div(work, 32) * 32));
  int64_t blocks = ceil_div(work, threads);  // per row
  // One vector a thread over 2+ blocks whose warp-rounded even split would not cover the row exactly (2052 fp16: 513
  // 8-byte vectors, 3 blocks of 192): the fewest blocks, up to twice the count, that divide the row's vectors into
  // blocks of 64+ threads (3 of 171; a block need not be whole warps), so the exact kernel runs (no index test on the
  // first load's chain, one pass). At decode, a row with no such split and at most 2 blocks' vectors (2056 bf16: 257, a
  // prime; 1540: 385) is one block of exactly its vectors. H200, lib_ab, silu and gelu, both dtypes, bits unchanged
  // (NVIDIA_H200_lib_ab_exact_split_s41.txt): 1-256 rows x 2052, 2880, 3000, 4100, 5000, 7170 +0.3 to +6 % (silu
  // 256 x 2052 fp16 5.11 -> 4.96 us), 1540 and 2056 (one block) +0.5 to +4 %; 4096 (exact already) and 3084 (771 = 3 x
  // 257: neither) unchanged. Past decode, 600-32768 rows x 2056-18944: silu -0.7 to +2.2 % (18944: 16 blocks of 148,
  // -0.3 to -0.7 %), gelu -1.4 to +15 % (8192 x 2880 bf16 43.8 -> 38.7 us, silu's time: 7 % fewer instructions, and
  // GELU is near the issue limit; Nsight Compute, NVIDIA_H200_ncu_gelu_exact_split_s41.txt). One block of more than 512
  // threads lost at 1-32 rows (1 x 8192 -8 to -14 %, session 41's first try), so not past 2 blocks' vectors.
  // Session 66: past decode, a row of 257-512 vectors is not split into blocks of under kMinSplitThreads threads, and
  // one with no other split is one block of exactly its vectors there too (past 65535 rows on a 1-D grid). Blocks of
  // 87-99 threads (2088-2376 wide: 261-297 16-byte vectors, 3 blocks) carry 4.2-4.8 KB each, and the block scheduler
  // (~800 blocks a us: session 58's 65536 one-block rows) cannot start them as fast as DRAM moves 4.3 TB/s (5.3 KB a
  // block at 800 a us): silu 5918 x 2088 fp16 0.919x FlashInfer's time (256 threads a row, five of them taking two
  // vectors; H200 draw seed 107). H200, lib_ab, silu and gelu, both dtypes, 4 buffer sets, outputs identical
  // (NVIDIA_H200_lib_ab_act_split_s66.txt, the rule with a least of 128 as tree c): one block against 3 of 87-91
  // (2088-2184) +0.6 to +22 % from 4000 rows (2088 x 32768 +22 %), against 3 of 99 (2376) +1.2 to +10.4 % from 8192,
  // -1.8 to +4.9 % below those; odd rows with no split (2104: 263, prime; before, two 160-thread blocks and the tested
  // kernel) silu +0.2 to +1.6 %, GELU +2.4 to +17.5 %; against 3 of 111-127 (2664, 3000, 3048) -4.3 to +2.1 %, most
  // within 1 %, so the least sits between 99 and 111. Rows of 513+ vectors keep 64: 4120 (515, 5 blocks of 103) folded
  // instead into 2 blocks of 256 (a second pass for 3 threads; tree b) lost 4-11 % (GELU) and -3.2 to +6.3 % (SiLU,
  // gains only from 8192 rows).
  // Session 67: the same limit for rows of 513+ vectors at SiLU and GELU-tanh (16-bit), where the grid is long
  // (kWideSplitFromBlocks+ blocks an SM): an exact split into blocks of under kWideSplitThreads threads (4120-4400
  // wide: 515-550 vectors, 5 blocks of 103-110; 6216: 777, 7 of 111) becomes work / kWideSplitThreads wider blocks and
  // the tested kernel (4120: 4 of 129, one idle thread). A block of 103 threads moves 4.9 KB (16 bytes of each operand
  // in, 16 out, a thread); at ~800 blocks a us that is ~4 TB/s, under the copy's 4.3. H200, lib_ab, both dtypes, 4
  // buffer sets, FlashInfer as a third tree, 1000-65536 rows x 11 widths (NVIDIA_H200_lib_ab_act_wide_split_fi_s67.txt;
  // timed as work / 128 blocks, the same blocks as work / 112 at every row this reaches to 16384 wide): 4120 +1.8 to
  // +8.0 % from 8192 rows (FlashInfer's one block of 515 had been 0.9-7.1 % ahead there), 4280 +2.0 to +4.3 % and 4400
  // +0.2 to +1.8 % from 16384, 6216 +0.6 to +1.1 % from 32768; blocks of 115-127 (4600, 5000, 6888, 8424-15000) within
  // +-0.6 % from 8192, as the 5.5+ KB they move predicts; 1000-4000 rows (the short grids the bound keeps out) -4.5 to
  // +4.1 %, most -0.2 to -2 %. GELU (erf, issue-bound: FlashInfer's launch 12-28 % behind ours to 32768 rows) lost
  // 6-14 % to 4 blocks of 129 at 4120 x 1000-32768 (+1 to +3 % at 65536; NVIDIA_H200_lib_ab_act_wide_split_s67.txt), so
  // not GELU.
  bool split = false;  // a split chosen here: exact, or (session 67) widened
  if (hint == 0 && per == 1 && !narrow_latency && blocks > 1 && blocks * even_threads(work, blocks) != work) {
    const int64_t least = decode || work > 2 * kThreads ? 64 : kMinSplitThreads;
    for (int64_t b = blocks; b <= 2 * blocks && work / b >= least; ++b)
      if (work % b == 0) {
        blocks = b, threads = static_cast<int>(work / b), split = true;
        break;
      }
    if (!split && work <= 2 * kThreads) blocks = 1, threads = static_cast<int>(work), split = true;
    if (split && sizeof(T) == 2 && !kHeavy && !decode && sms > 0 && work > 2 * kThreads &&
        threads < kWideSplitThreads && rows * blocks >= kWideSplitFromBlocks * static_cast<int64_t>(sms)) {
      blocks = work / kWideSplitThreads, threads = static_cast<int>(ceil_div(work, blocks));
    }
  }
  // A last block with under 1/8 of a block's work is folded into the others (a second pass of a few threads) where
  // rows fill the GPU many times over: at 8192 x 14340 bf16 (8-byte vectors, 1793 threads of work a row) it was one
  // thread in the 8th block, so one block in eight did nothing but be scheduled. Not at decode: one more pass is one
  // more dependent DRAM round trip there. Nor a row of two blocks (session 40): one block making the second pass is
  // the row's whole time doubled for those threads, where two even blocks are half-empty only: 4-element rows of 2260
  // (283 threads of work) +4.1 to +4.5 % at 1000-4000 rows, +1.6 % at 16384; 2056 +0 to +0.9 %; rows of 3-8 blocks
  // (4104-14340) within +-1 % of folding them as before, bar one -1.9 % (4000 x 4104 bf16; fp16 -0.6 %) (H200, lib_ab,
  // silu, both dtypes, NVIDIA_H200_lib_ab_fold_s40.txt).
  if (split) {
    // the splits above
  } else if (hint == 0 && !decode && !narrow_latency && blocks > 2 && work - (blocks - 1) * threads < threads / 8) {
    --blocks;
  } else if (narrow_latency && blocks > 1) {
    blocks = 1, threads = static_cast<int>(work);  // 257-512 vectors (16-bit): one block of exactly them, see above
  } else if (hint == 0 && blocks > 1) {
    // Otherwise the row's blocks share its work evenly (warp-rounded): at 8960 wide (1120 threads of work) five
    // blocks of 224 threads instead of four of 256 and one of 96, so every block of the grid takes as long.
    threads = even_threads(work, blocks);
  }
  // Short rows past decode (a row's work fits a quarter block: 16-bit d <= 512 at the widest vector): one block a row
  // made the grid's size, not the bytes, the limit, as the block scheduler starts only so many blocks a microsecond
  // (262144 x 128 bf16: ours 318.9 us and FlashInfer's the same, torch 183; H200, NVIDIA_H200_small_widths_s38.txt).
  // Such rows share a block: blockDim.x threads a row (the power of two at or above the row's work up to 32, else whole
  // warps), blockDim.y rows. lib_ab, 2048-262144 rows, both dtypes (NVIDIA_H200_lib_ab_short_rows_s38.txt): 512 wide
  // +4.4 to +68 %, 320 +16 to +158 %, 128 +34 to +506 %, 64 up to 10.7x; at 1024 (two rows of 128 threads) -0.6 to
  // -6.5 %, so not there. Narrow vectors (16 bytes a thread) past 7 x the SMs (8 x at 128+ vectors) too: 1056-41801
  // rows x 73-498 wide +0.2 to +4.4x (NVIDIA_H200_lib_ab_narrow_rows_s39.txt); at 1056 rows x 82-148 +5 to +9 % over
  // one vector a thread.
  // Session 58: rows of 65-80 threads of work (520-640 wide at 16-byte vectors, 514-640 at 4- and 8-byte ones) share
  // too past kSharedRowFromSms x the SMs, two rows of 96 threads a block: one block a row had left the block
  // scheduler's rate the limit (65536 rows 82-83 us at every width from 514 to 770; 1022, twice the bytes, 99). H200,
  // lib_ab, both dtypes, outputs identical (NVIDIA_H200_lib_ab_act_shared_s58.txt, ..._packed_pairs_s58.txt,
  // ..._packed_pairs_rule_s58.txt, ..._packed_pairs_final_s58.txt): SiLU and GELU-tanh +6 to +17 % at 6337 rows, +17
  // to +33 % at 16384, +30 to +53 % at 65536 (520 bf16 82.6 -> 53.9 us); GELU (erf, more math a row) -2.6 to +0.5 % at
  // 6337, +1.6 to +13 % at 65536. At 1000-4000 rows (-3 to +11 %) and for rows of 81-96 threads (700, 766: GELU -1 to
  // -3 %, SiLU level to 8192 rows) not; 128-thread rows (770-1022) +-1 % or, at the widest vector, worse (1016, GELU
  // -5 %). Only where the SM count is known.
  int rows_per_block = 1;
  const bool wider_shared =
      sms > 0 && rows > kSharedRowFromSms * static_cast<int64_t>(sms) && work <= kSharedRowMaxWork;
  if (hint == 0 && !decode && !narrow_latency && (vec == kMaxVec || rows > narrow_rows) && blocks == 1 &&
      (4 * threads <= kThreads || wider_shared)) {
    threads = static_cast<int>(shared_row_threads(work));  // = the warp-rounded count past 32 (<= 96 here)
    rows_per_block = kThreads / threads;
    // Session 68: but no fewer blocks than kSharedMinSmBlocks an SM: just past decode 16 rows a block left most SMs
    // idle (435 x 96: 28 blocks on 132 SMs; GELU-tanh bf16 0.975x FlashInfer's time, H200 draw seed 113), each
    // thread's math after its loads on a few SMs' issue slots. Halved until the grid holds that many (one block a row
    // at the least). H200, lib_ab, 4 buffer sets, outputs identical (NVIDIA_H200_lib_ab_act_packed_small_grids_s68.txt,
    // 265-4096 rows x 64-512 wide, every op, both dtypes): 2 an SM at 265-435 rows SiLU -1.3 to +2.3 % (mean +0.9),
    // GELU-tanh -0.8 to +2.5 (+1.2), GELU +0.7 to +4.0 (+2.2); from 600 rows -1.6 to +1.7 (mean 0.0); 4 an SM lost up
    // to 12.7 % at 1000-2048 rows.
    while (rows_per_block > 1 &&
           ceil_div(rows, static_cast<int64_t>(rows_per_block)) < kSharedMinSmBlocks * static_cast<int64_t>(sms))
      rows_per_block /= 2;
  }
  // A row of one block that no rows share gets exactly its work's threads (FlashInfer's block is d / vec too), so the
  // block covers it exactly and the kernel without the index tests runs. At decode: 64-192 and 320 wide (8-40 threads),
  // 1-256 rows, both dtypes, +0.7 to +3.6 % (H200, lib_ab, NVIDIA_H200_lib_ab_short_rows_s38.txt); 256 and 1024 (exact
  // already) +-1 %. Session 39: narrow vectors as well, 1-256 rows x 73-498 wide +1 to +4.5 %
  // (NVIDIA_H200_lib_ab_narrow_rows_s39.txt); and past decode every row of one block that no rows share: 300-16384 rows
  // x 1000, 1368, 1840, 2000 +0.2 to +3.5 % (8192 x 2000 -1.2 to -2.3 %), warp-multiple rows (1536) and two-block ones
  // (2736) +-0.6 % (NVIDIA_H200_lib_ab_exact_one_block_s39.txt).
  // (`work <= threads`: a row folded into one block would keep its block and make a second pass; since session 40 a
  // fold leaves 2+ blocks, so a one-block row's work always fits, and the test only keeps the launch bound if that
  // changes. Session 39's first version trimmed such rows to 257-287 threads and failed to launch.)
  // Only at one vector a thread (session 40): with more, the block's threads stride over the row (per vectors each), so
  // trimming the warp-rounded block to the work left each fewer threads to share it: single elements at 1000 x 513
  // bf16, 65 threads a block with 8 elements each 6.12 us (gelu), 96 threads with 5-6 each 5.71, FlashInfer 5.61 (H200,
  // decode_configs.py, NVIDIA_H200_decode_configs_odd_mid_s40.txt).
  // Session 66: a tuned choice of one vector a thread whose block covers the row is trimmed too (hint 81 at 1004 fp16:
  // 251 threads, not 256), so tuning reaches FlashInfer's launch (one block of d / vec threads a row) with the exact
  // kernel; before, such a hint kept its warp-rounded block and the tested kernel (session 65: 0.976-0.990x
  // FlashInfer's time at 3000-4600 x 1004, where the exact kernel at that launch tied it).
  if ((hint == 0 || hint_per == 1) && per == 1 && blocks == 1 && rows_per_block == 1 && work <= threads)
    threads = static_cast<int>(work);
  const dim3 grid = grid_of(blocks, ceil_div(rows, static_cast<int64_t>(rows_per_block)));
  const bool exact = per == 1 && rows_per_block == 1 && blocks * threads == d / vec;  // see the kernel
  auto go = [&](auto vec_c) {
    constexpr int kVec = decltype(vec_c)::value;
    [[maybe_unused]] constexpr int kHalf = kMaxVec / kVec / 2 > 0 ? kMaxVec / kVec / 2 : 1;  // 16-bit only
    if constexpr (sizeof(T) == 2)  // 8 bytes of each operand a thread (the half-bytes rule above)
      if (rows_per_block > 1 && per != kMaxVec / kVec)
        return launch_kernel(ActAndMulKernel<T, Act, kVec, kHalf, false, true>, grid, dim3(threads, rows_per_block),
                             stream, pdl, in, in_stride, out, out_stride, d, rows);
    if (rows_per_block > 1)  // 16 bytes of each half a thread (per == kMaxVec / kVec past decode)
      return launch_kernel(ActAndMulKernel<T, Act, kVec, kMaxVec / kVec, false, true>, grid,
                           dim3(threads, rows_per_block), stream, pdl, in, in_stride, out, out_stride, d, rows);
    if (threads > kThreads) {  // a row of 257-512 vectors in one block (exact)
      if (exact && grid.z == 1)
        return launch_kernel(ActAndMulKernel<T, Act, kVec, 1, true, false, 2 * kThreads>, grid, dim3(threads), stream,
                             pdl, in, in_stride, out, out_stride, d, rows);
      if constexpr (kVec == kMaxVec)  // past 65535 rows (one vector a thread past decode: the widest), see kSlabs
        if (exact && grid.x == 1)
          return launch_kernel(ActAndMulKernel<T, Act, kVec, 1, true, false, 2 * kThreads, true>,
                               dim3(static_cast<unsigned>(rows)), dim3(threads), stream, pdl, in, in_stride, out,
                               out_stride, d, rows);
      return cudaErrorInvalidValue;
    }
    if (exact && grid.z == 1)
      return launch_kernel(ActAndMulKernel<T, Act, kVec, 1, true>, grid, dim3(threads), stream, pdl, in, in_stride,
                           out, out_stride, d, rows);
    if constexpr (kVec == kMaxVec)  // past 65535 rows (one vector a thread there: the widest vector), see kSlabs
      if (exact)
        return launch_kernel(ActAndMulKernel<T, Act, kVec, 1, true, false, kThreads, true>,
                             grid.x == 1 ? dim3(static_cast<unsigned>(rows)) : grid, dim3(threads), stream, pdl, in,
                             in_stride, out, out_stride, d, rows);
    if (per == 1)
      return launch_kernel(ActAndMulKernel<T, Act, kVec, 1>, grid, dim3(threads), stream, pdl, in, in_stride, out,
                           out_stride, d, rows);
    if constexpr (sizeof(T) == 2)
      if (per != kMaxVec / kVec)  // 8 bytes of each operand (the half-bytes rule)
        return launch_kernel(ActAndMulKernel<T, Act, kVec, kHalf>, grid, dim3(threads), stream, pdl, in, in_stride,
                             out, out_stride, d, rows);
    return launch_kernel(ActAndMulKernel<T, Act, kVec, kMaxVec / kVec>, grid, dim3(threads), stream, pdl, in,
                         in_stride, out, out_stride, d, rows);
  };
  if (vec == kMaxVec) return go(std::integral_constant<int, kMaxVec>{});
  if (vec == kMaxVec / 2) return go(std::integral_constant<int, (kMaxVec / 2 > 0 ? kMaxVec / 2 : 1)>{});
  if (vec == kMaxVec / 4) return go(std::integral_constant<int, (kMaxVec / 4 > 0 ? kMaxVec / 4 : 1)>{});
  return go(std::integral_constant<int, 1>{});
}

}  // namespace flashinfer_nb
