// RMSNorm and fused add + RMSNorm, one read and one write of every element.
//
//   rmsnorm:            out[r]   = x[r] * rsqrt(mean(x[r]^2) + eps) * (weight + weight_bias)
//   fused_add_rmsnorm:  res[r]  += x[r] (rounded to T);  x[r] = rmsnorm(res[r])
//
// weight_bias = 1 gives the Gemma variants. Every row is held in registers between the reduction and
// the write, so each element crosses DRAM once in each direction (the byte floor); the weight is
// small and stays in L2. Accumulation is fp32; the output is rounded once.
//
// Thread mapping: a row is handled by a "group" of G threads. Short rows (<= 32 vectors) pack several rows into a
// block with G a power of two <= 32 (reduction by warp shuffles only; narrow 16-bit rows also two warps, G = 64, their
// sums through shared memory: session 59, dispatch); longer rows get a block of G = 32k threads each (warp shuffles,
// then one shared-memory step). Each thread owns kVPT vectors of kVec elements, strided by G so a warp's loads stay
// coalesced.
// Framework-agnostic: raw pointers, no torch or TVM-FFI headers.
#pragma once
#include <type_traits>

#include "norm_launch.h"
#include "norm_peeled.cuh"
#include "norm_rounds.cuh"
#include "vec.cuh"

namespace flashinfer_nb {

namespace norm_detail {

// kGroup > 0: kGroup (a power of two up to 32, or 64 / 128: whole warps) threads per row, blockDim.x / kGroup rows per
// block.
// kGroup == 0: one row per block, blockDim.x (a multiple of 32) threads.
// kPrefetchBlocks and kMaxBlock (norm_launch.h) are shared with the peeled kernel (norm_peeled.cuh).
constexpr int kPackedBlock = 256;  // threads per block when rows are packed (kGroup > 0)
// 16-bit rows packed several to a block past a row count (dispatch: sessions 58-59), in groups of 32 threads (one warp)
// or 64 (two warps) a row; 0 where the row keeps a block of its own. Rows of `d` elements on `sms` SMs: 2- and 4-element
// rows (as d / 2 2-element vectors) up to kPackedPairsMaxD wide (rmsnorm kPackedPairsRmsMaxD), odd rows of single
// elements up to kPackedSinglesFusedMaxD (rmsnorm kPackedSinglesMaxD). Each function holds its whole rule, widths too.
constexpr int kPackedPairsMaxD = 768, kPackedPairsRmsMaxD = 1024, kPackedSinglesMaxD = 512, kPackedSinglesFusedMaxD = 448;
inline int packed_pairs_group(bool fused, int d, int64_t rows, int64_t sms) {
  if (d > (fused ? kPackedPairsMaxD : kPackedPairsRmsMaxD)) return 0;
  const int pairs = d / 2;
  if (pairs <= 128) return rows > (fused ? 7 : (pairs <= 32 ? 0 : pairs <= 64 ? 6 : 9) * sms) ? 32 : 0;
  if (pairs <= 256) return rows > 32 * sms ? 32 : rows > (fused ? 4 : 12) * sms ? 64 : 0;
  return rows > (fused ? 34 : pairs <= 400 ? 18 : 96) * sms ? 64 : 0;
}
// rmsnorm's 16-bit rows of 1025-2048 two warps a row, kTwoWarpRowsRows rows a block (session 61, dispatch): whether
// rows of `d` elements in vectors of `vec` (8: 16-byte rows; 2, 4; 1: odd rows) take them on `sms` SMs. 2- and
// 4-element rows past 10 x the SMs (2-element rows wider than kTwoWarpRowsWideD past 9 x; 15 x until session 62);
// 16-byte rows past 18 x (those wider than kTwoWarpRowsWideD up to 48 x); odd rows up to kTwoWarpRowsOddMaxD past
// 48 x, those up to kTwoWarpVpt2MaxD (2 chunks a lane, session 62) past 15 x. The whole rule, widths too.
// Session 62, H200, lib_ab. Below 15 x the vector kernel's one block a row ran a second wave from ~9-11 x
// (NVIDIA_H200_lib_ab_two_warp_from_fewer_s62.txt, 800-2050 rows x 1026-2042): two-warp rows from 10 x +9 to +19 % for
// 2-element rows at 1450-1980 rows, +1.6 to +5 % for 4-element ones, the rest -1.2 to +2.1 %; from 8 x 2-element rows
// wider than 1536 +6 to +15 % at 1200-1320 (-4.3 % at 1100), narrower ones and 4-element rows -1 to -3 %; 16-byte rows
// from 10 x -3 to -6 %. Odd rows of 1025-1031 from 15 x (..._two_warp_odd_rows_s62.txt, ..._cap_odd_s62.txt): +1.4 to
// +6.4 % at 2300-6000 rows (-1.0 to +1.0 past 8192); at 1033-1151 -2.5 to +2.0 % past 2300 (so not those).
// Session 64: odd rows of 1152-2047 past 21 x (kTwoWarpRowsOddWideFromSms) up to the end of the one-warp band past the
// two-warp wave (norm_peeled.cuh's two_warp_route; 32 x on the H200), the pieces kernel one block a row elsewhere.
// H200, lib_ab, 1153-2047, both dtypes, against the pieces kernel (NVIDIA_H200_lib_ab_odd_{warp8,route}_s64.txt): two
// warps a row at 2100 rows -0.1 to -4.5 %, 2200-2772 -1.7 to +3.7 % (3 chunks a lane -1.7 to +1.4), 2904-3168 +0.3 to
// +6.9 %; one warp a row at 8 chunks at 3180-4224 +2.0 to +10.4 % (below 24 x it lost up to 17.2 %, past 32 x up to 12.6 %).
constexpr int kTwoWarpRowsMinD = 1025, kTwoWarpRowsMaxD = 2048, kTwoWarpRowsWideD = 1536, kTwoWarpRowsOddMaxD = 1151;
constexpr int kTwoWarpRowsRows = 2, kTwoWarpRowsOddWideFromSms = 21;
inline bool two_warp_rows(int vec, int d, int64_t rows, int64_t sms) {
  if (sms <= 0 || d < kTwoWarpRowsMinD || d > kTwoWarpRowsMaxD) return false;
  if (vec == 1)
    return rows > (d <= kTwoWarpVpt2MaxD ? 15 : d <= kTwoWarpRowsOddMaxD ? 48 : kTwoWarpRowsOddWideFromSms) * sms;
  if (vec < 8) return rows > (vec == 2 && d > kTwoWarpRowsWideD ? 9 : 10) * sms;
  return rows > 18 * sms && (d <= kTwoWarpRowsWideD || rows <= 48 * sms);
}
inline int packed_singles_group(bool fused, int d, int64_t rows, int64_t sms) {
  if (d > (fused ? kPackedSinglesFusedMaxD : kPackedSinglesMaxD)) return 0;
  if (!fused) return rows > (d <= 128 ? 0 : d <= 192 ? 2 : d <= 256 ? 8 : 4) * sms ? 32 : 0;
  if (d <= 128) return 32;
  return rows > (d <= 256 ? 0 : d <= 320 ? 4 : d <= 384 ? 64 : 96) * sms ? 64 : 0;
}

// When the weight is read (kWeight):
//   kLate:    after the reduction, one vector at a time in the store loop (no registers held; prefetched into L2
//             by the first blocks). The store to `out` between two weight loads keeps the compiler from hoisting
//             the next load above it (they might alias), so a thread with kVPT vectors waits kVPT L2 round trips
//             in a row: fine with many warps per SM, the chain that decides a decode launch otherwise.
//   kEarly:   with the row, before the reduction (registers held across it; no L2 prefetch).
//   kBatched: after the reduction, all kVPT vectors before the first store (one L2 round trip; registers held
//             only from the reduction to the stores).
constexpr int kLate = 0, kEarly = 1, kBatched = 2;

// Which of a thread's vectors the kernel tests against the row's end (kFit, block mode only):
//   kTested: every one.
//   kExact:  none: group * kVPT == d / kVec, so every thread's every vector is in the row. At decode the test is on
//            the chain before the first load (a constant load of d, shifts, a compare, a predicate or branch).
//   kLast:   only the last: group * (kVPT - 1) <= d / kVec, so the others are in the row, and their loads issue
//            before any test (rmsnorm's early-weight decode kernels with 2 or 4 vectors a thread). See dispatch.
// kShift (block mode, kTested only): the threads' vectors start at the 128-byte line that holds the row's first
// element, not at the element: thread t takes vector t - s + k * group, s = the row's vectors before it in that line,
// so each warp's load covers whole lines (a row 16 bytes off a line otherwise has each warp's 512 bytes span 5 lines,
// not 4). The first s threads' first vectors wrap to the block's last slots (index() below): past the row where the
// block has s spare vectors, else the row's last vectors, which also start on a line.
// The kernels below wrap this body.
constexpr int kTested = 0, kExact = 1, kLast = 2;
template <typename T, int kVec, int kVPT, int kGroup, bool kFused, int kWeight, int kFit, bool kShift = false>
__device__ __forceinline__ void rmsnorm_rows(const NormParams& p) {
  using V = VecN<T, kVec>;
  const int group = kGroup > 0 ? kGroup : blockDim.x;
  const int lane = kGroup > 0 ? threadIdx.x % kGroup : threadIdx.x;
  const int64_t row = kGroup > 0 ? static_cast<int64_t>(blockIdx.x) * (blockDim.x / kGroup) + threadIdx.x / kGroup
                                 : static_cast<int64_t>(blockIdx.x);
  // Dead threads of the last packed block still join the shuffles. A block-mode grid is exactly p.rows blocks (launch),
  // so there every thread is live and the test (a constant load, a 64-bit compare, a branch ahead of the first load) is
  // compiled out: rmsnorm and fused_add_rmsnorm bf16 0-2.5 % faster at 8-256 rows x 1536-8192, except 256 x 8192 fused
  // (-1 to +1.5 % over four runs; H100, one process, NVIDIA_H100_lib_ab_prologue_s31.txt and ..._exact_s31.txt).
  const bool live = kGroup == 0 || row < p.rows;
  const int nvec = p.d / kVec;
  auto in_row = [nvec](int i, int k) {
    return kFit == kExact || (kFit == kLast && k < kVPT - 1) || i < nvec;
  };

  const V* in = reinterpret_cast<const V*>(static_cast<const T*>(p.input) + row * p.in_stride);
  static_assert(!kShift || (kGroup == 0 && kFit == kTested), "kShift: block mode, every vector tested");
  constexpr int kLineVecs = 128 / static_cast<int>(sizeof(V));
  const int shift = kShift ? static_cast<int>(reinterpret_cast<uintptr_t>(in) / sizeof(V) % kLineVecs) : 0;
  // Thread lane's k-th vector (line_slot, vec.cuh: with kShift, mapped from the row's 128-byte line).
  auto index = [&](int k) { return line_slot<kVPT, kShift>(lane, k, group, shift); };
  V* res = reinterpret_cast<V*>(static_cast<T*>(p.residual) + row * p.res_stride);
  const V* w = reinterpret_cast<const V*>(p.weight);

  // Issue every load of the row before any arithmetic: kVPT (fused: 2 kVPT) transactions in flight per
  // thread hide the DRAM latency. The weight is read after the reduction: holding it across the
  // reduction costs kVPT * 4 registers (fewer resident warps: 37.3 vs 34.3 us at 8192 x 4096 bf16),
  // but reading it late is a second DRAM round trip for a call with few rows (1.9 -> 3.4 us at
  // 1 x 4096). So the first blocks prefetch it into L2 (no registers held); later blocks find it
  // there. Prefetching from every block cost 45% at 8192 x 4096: as many L2 requests as row loads.
  V xv[kVPT];
  V rv[kFused ? kVPT : 1];
  V wv[kWeight != kLate ? kVPT : 1];
  // The prefetch goes before pdl_wait(): it only moves lines into L2, the point of coherence, so it cannot read
  // anything stale even if the kernel before writes the weight; with PDL it overlaps that kernel's tail.
  if (kWeight != kEarly && blockIdx.x < kPrefetchBlocks) {
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = index(k);
      if (live && in_row(i, k)) asm volatile("prefetch.global.L2 [%0];" ::"l"(w + i));
    }
  }
  pdl_wait();  // PDL: every read of the inputs and every write comes after the previous kernel has finished
  // rmsnorm with one vector a thread and a block wider than the row (2880: 360 vectors, 384 threads): the threads past
  // the row load its last vector instead of branching around the loads (the same 128-byte line as their neighbours',
  // no extra DRAM traffic), and drop it in the sums and stores below. The test and branch leave the chain ahead of
  // the first load: 0.6-3.1 % faster at 1-528 rows x 1540-3000 on the H200, 0.6-2.2 % on the H100, every output
  // identical (NVIDIA_H{200,100}_lib_ab_clamp_s35.txt; 160 x 2880 bf16 4.91 -> 4.85 us on the H100). Not for the fused
  // kernel (-0.8 to +1.8 %) nor 2 vectors a thread (-2.5 to +2.6 %; NVIDIA_H100_lib_ab_clamp_vpt2_s35.txt).
  // The fused kernel takes it since session 52 with its sum branch-free as well (kMasked, below): the clamped threads'
  // vector zeroed after the add, their residual and output stores predicated. H200, lib_ab, 1-264 rows x 1540-3192,
  // both dtypes, every output identical: +0.5 to +0.8 % on average a width (-0.7 to +2.1 %); the clamp alone, the sum
  // still behind the branch, +0.0 to +0.4 % (NVIDIA_H200_lib_ab_fused_clamp{,0}_s52.txt). An exact fit, with no test at
  // all, was 0-2.7 % ahead of this tested kernel at the same width (NVIDIA_H200_lib_ab_tested_vs_exact_s52.txt). As
  // shipped, 1-264 rows x 1018-4088: +0.2 to +1.2 % a width on average on the H200, +0.1 to +1.3 % on the H100
  // (NVIDIA_H{200,100}_lib_ab_fused_masked_s52.txt).
  constexpr bool kClamp =
      kGroup == 0 && kFit == kTested && kVPT == 1 && !kShift && (!kFused || (sizeof(T) == 2 && kVec % 2 == 0));
  constexpr bool kMasked = kClamp && kFused;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    if constexpr (kClamp) {
      const int j = min(i, nvec - 1);
      xv[k] = in[j];
      if constexpr (kFused) rv[k] = res[j];  // read, never used past the row (kMasked)
      if constexpr (kWeight == kEarly) wv[k] = w[j];
    } else if (live && in_row(i, k)) {
      // One guarded block for every load of the vector, so they issue back to back. With the early weight in a loop
      // of its own (until session 28), nvcc put the weight's load first in bf16 and converted it before the branch
      // to the row's load: two dependent DRAM round trips (rmsnorm 8 x 1536 bf16: 2.37 us kernel time early vs 1.98
      // late, while fp16 early was 1.95), so the rule's early weight lost to the late one at bf16 decode shapes.
      xv[k] = in[i];
      if constexpr (kFused) rv[k] = res[i];
      if constexpr (kWeight == kEarly) wv[k] = w[i];
    }
  }
  // PDL: the loads are in flight; the next kernel's blocks may now be scheduled (they wait in their pdl_wait()
  // until this grid has finished and its writes are visible), so their launch overlaps our reduction and stores.
  pdl_launch_dependents();

  // The row stays in registers as loaded (kVec elements of T per vector, half the registers of fp32
  // copies): converting again for the output costs an ALU op, while fewer registers mean more resident
  // warps and so more loads in flight.
  // Two partial sums (even and odd elements): a chain of kVec / 2 dependent FMAs after the load lands, not kVec.
  // The sum of squares and the output unpack the row in pairs (to_float2: bf16 -> fp32 is one integer op per element,
  // where the odd element alone took a byte permute and a shift): rmsnorm bf16 0.5-2.7 % faster at 32-256 rows x
  // 4096-8192, bits unchanged (H100, NVIDIA_H100_lib_ab_to_float2_s30.txt). The fused kernel's residual add keeps
  // to_float per element: with pairs there nvcc reordered the block and it was 1-2 % slower at 128-256 x 1536-4096.
  float ss = 0.f, ss_odd = 0.f;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    const bool ok = live && in_row(i, k);
    if (kMasked || ok) {
      if constexpr (kFused) {
        // residual += input, rounded to T: the normalised value is what the residual stream holds
        // With 4+ vectors a thread the add takes packed pairs (add.rn.{f16,bf16}x2, the same bits): in bf16 nvcc had
        // unpacked all 4 residual vectors to fp32 ahead of the adds, 62 registers live (fp16: 49), 64 allocated.
        // - Late weight (session 33): 54 registers, bf16 0.7-1.9 % faster at 4000-30000 x 12288-16384 (16384 x 16384
        //   530.8 -> 523.8 us; FlashInfer 528), -0.3 to +0.5 % elsewhere (H200; NVIDIA_H200_lib_ab_packed_add_s33.txt).
        // - Early and batched weight (session 34): bf16 early 84 -> 64 registers (two 432-thread blocks an SM, not
        //   one); at 133-256 rows x 4100-16384 -0.7 to +4.2 % (H200 and H100;
        //   NVIDIA_H{200,100}_lib_ab_decode_early4_s34.txt).
        // Every output identical in lib_ab.
        if constexpr (sizeof(T) == 2 && kVec % 2 == 0 && kVPT >= 4) {
          add_pairs_rn(xv[k], rv[k]);
        } else {
          convert_pairs(xv[k], [&](int j) { return to_float(xv[k].data[j]) + to_float(rv[k].data[j]); });
        }
        if (ok && !p.res_late) res[i] = xv[k];
        if (kMasked && !ok) xv[k] = V{};  // a thread past the row adds nothing to the sums
      }
      if constexpr (kVec % 2 == 0) {
#pragma unroll
        for (int j = 0; j < kVec; j += 2) {
          const float2 v = to_float2(xv[k], j);
          ss += v.x * v.x;
          ss_odd += v.y * v.y;
        }
      } else {
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          const float v = to_float(xv[k].data[j]);
          if (j % 2 == 0) ss += v * v; else ss_odd += v * v;
        }
      }
    }
  }
  ss += ss_odd;

  // Sum of squares over the group: shuffles within each warp (xor offsets stay inside an aligned
  // group of kGroup lanes); for a block-wide group, then the warps' sums through shared memory (vec.cuh). Every
  // thread adds in the same order: one rstd a row.
  constexpr int kWarpSpan = kGroup > 0 && kGroup < 32 ? kGroup : 32;
#pragma unroll
  for (int o = kWarpSpan / 2; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if constexpr (kGroup > 32) {
    // a group of kGroup / 32 whole warps a row: their sums through shared memory, added in warp order by every thread
    static_assert(kGroup == 64 || kGroup == 128, "packed groups of two or four warps");
    __shared__ float part[kMaxBlock / 32];
    const int warp = threadIdx.x / 32, first = warp & ~(kGroup / 32 - 1);
    if (threadIdx.x % 32 == 0) part[warp] = ss;
    __syncthreads();
    ss = part[first];
#pragma unroll
    for (int j = 1; j < kGroup / 32; ++j) ss += part[first + j];
  }
  if constexpr (kGroup == 0) {
    static_assert(kMaxBlock == 32 * kMaxBlockWarps, "sum_warp_partials covers the largest block");
    ss = sum_warp_partials(ss);
  }
  if (!live) return;
  const float rstd = rsqrtf(ss * p.inv_d + p.eps);
  if constexpr (kWeight == kBatched) {
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = index(k);
      if (in_row(i, k)) wv[k] = w[i];
    }
  }

  V* out = reinterpret_cast<V*>(static_cast<T*>(p.out) + row * p.out_stride);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    if (in_row(i, k)) {
      const V wk = kWeight != kLate ? wv[kWeight != kLate ? k : 0] : w[i];
      V o;
      if constexpr (kVec % 2 == 0) {
#pragma unroll
        for (int j = 0; j < kVec; j += 2) {
          const float2 x = to_float2(xv[k], j), g = to_float2(wk, j);
          from_float2<T>(x.x * rstd * (g.x + p.weight_bias), x.y * rstd * (g.y + p.weight_bias), &o.data[j]);
        }
      } else {
        convert_pairs(o, [&](int j) { return to_float(xv[k].data[j]) * rstd * (to_float(wk.data[j]) + p.weight_bias); });
      }
      if (kFused && p.res_late) res[i] = xv[k];
      out[i] = o;
    }
  }
}

template <typename T, int kVec, int kVPT, int kGroup, bool kFused, int kWeight = kLate, int kFit = kTested,
          bool kShift = false>
__global__ void __launch_bounds__(kMaxBlock) RMSNormKernel(const NormParams p) {
  rmsnorm_rows<T, kVec, kVPT, kGroup, kFused, kWeight, kFit, kShift>(p);
}

// The fused prefill kernel (16-byte vectors of a 16-bit type, 4 a thread, late weight) held to 48 registers, for blocks
// of <= 256 threads (d <= 8192): it holds 54 under the bound above, so 128-thread blocks fit 9 to an SM and 256-thread
// blocks 4; at 48, 10 and 5 (more rows' loads in flight), with no spill. H200, lib_ab, every output identical
// (NVIDIA_H200_lib_ab_regs48_s34.txt): 0.5-1.9 % faster at 4000-30000 rows x 4096 and 8192, both dtypes; but at
// 12288-16384 (384-512 threads, where 48 registers fit no more blocks, or 14336's 448 threads go from 2 to 3 blocks)
// 0.1-1.0 % slower, so those keep the kernel above. On the H100, already at its copy ceiling there, it is -0.2 to
// +1.0 % at 3000-40000 rows x 2880-8192 (NVIDIA_H100_lib_ab_regs48_s34.txt, ..._regs48_off_s34.txt).
// `__maxnreg__` cannot sit beside `__launch_bounds__`, and nvcc allocates differently under each, so this is a second
// kernel over the same body rather than a bound on the first.
template <typename T, int kVec, int kVPT, int kGroup, bool kFused, int kWeight = kLate, int kFit = kTested,
          bool kShift = false>
__global__ void __maxnreg__(48) RMSNormKernel48(const NormParams p) {
  rmsnorm_rows<T, kVec, kVPT, kGroup, kFused, kWeight, kFit, kShift>(p);
}
template <typename T, int kVec, int kVPT, bool kFused, int kWeight>
constexpr bool kHas48 = kFused && sizeof(T) == 2 && kVec == 8 && kVPT == 4 && kWeight == kLate;

template <typename T, int kVec, int kVPT, int kGroup, bool kFused, int kWeight = kLate, int kFit = kTested,
          bool kShift = false>
cudaError_t launch(const NormParams& p, int block, cudaStream_t stream) {
  // packed: `block` threads a block (kPackedBlock where 0), block / kGroup rows; block mode: one block a row
  const int threads = kGroup > 0 && block == 0 ? kPackedBlock : block;
  const int64_t grid = kGroup > 0 ? ceil_div(p.rows, threads / kGroup) : p.rows;
  const dim3 g(static_cast<unsigned>(grid)), b(threads);
  if constexpr (kGroup == 0 && kHas48<T, kVec, kVPT, kFused, kWeight>) {
    if (block <= 256)
      return launch_kernel(RMSNormKernel48<T, kVec, kVPT, 0, kFused, kWeight, kFit, kShift>, g, b, stream, p.pdl, p);
  }
  return launch_kernel(RMSNormKernel<T, kVec, kVPT, kGroup, kFused, kWeight, kFit, kShift>, g, b, stream, p.pdl, p);
}

// 16-bit rows of single elements (odd widths) where one or two elements a thread in a block as wide as the row
// (FlashInfer's way, the weight late) beat the peeled kernel's 16-byte chunks: short rows while the grid is small. H200,
// lib_ab, both ops and dtypes: at decode 97-1023 wide +1 to +24 % (1025 and 1537 +-1 %, wider the peeled kernel 4-12 %
// ahead; NVIDIA_H200_lib_ab_odd_decode_s39.txt); past it, against the peeled kernel's own past-decode choice, at 300-528
// rows 97-225 +10 to +16 %, 417-665 +1 to +10 % (1001 -3.5 to +3.8 %), and at 608-1056 rows 97-225 +11 to +15 %
// where 417-1001 lost 9-21 % (NVIDIA_H200_lib_ab_odd_short_past_s39.txt). Since session 59 odd rows up to 128 wide (the
// fused op's to 256) take packed groups ahead of this at every row count, and wider ones up to 512 past a row bound
// (packed_singles_group, dispatch).
// sms: the SM count (0 where it cannot be read: never).
inline bool short_singles(const NormParams& p, int sms) {
  const int64_t s = sms;
  return sms > 0 &&
         ((p.rows <= 2 * s && p.d <= 1024) || (p.rows <= 4 * s && p.d <= 768) || (p.rows <= 8 * s && p.d <= 256));
}

// Threads-per-row choice for nvec vectors per row. Packed groups for short rows; otherwise a block of
// G = 32k <= 512 threads with kVPT vectors each: 4 by default (NOTES.md has the measurements), more only
// when G would pass 512. kVPT * kVec stays <= 64 floats of row data per thread. vpt_hint (tuning
// only) forces kVPT in block mode; 100 + v forces the early-weight kernel with kVPT = v, 200 + v (v >= 4) the
// batched late weight (100, 200: auto kVPT). Returns cudaErrorInvalidValue when d is too long for registers.
//
// Decode batches (rows <= 2 x the SM count: one or two blocks per SM, the grid never refills) are
// latency-bound, not bandwidth-bound: what counts is the serial chain of one block (loads in flight ->
// reduction -> weight -> stores). There the fewest vectors per thread (the most threads per row, up to
// 512) wins, and the weight is loaded with the row instead of after the reduction (one L2 round trip
// less; the fused kernel only while it holds <= 2 vectors of each operand or runs on at most half the SMs: at
// 256 x 16384 the extra registers cost more than they save). Measured on an H200 (nbs/11_norm.ipynb):
// 1 x 4096 bf16 4.96 -> 4.13 us, 1 x 16384 5.63 -> 4.99 us (FlashInfer 0.7.2: 4.66, 6.24). Until session 28 only
// rows of 8 KB and more took the early weight: below, bf16's early kernel issued its two loads one after the other
// (see the load loop), so it lost to the late one. Fixed, early wins at 1536 and 2048 too (H100, CUPTI kernel time,
// rmsnorm bf16 8 / 32 / 128 x 1536: late 1.98 / 2.11 / 2.43 us, early 1.92 / 2.02 / 2.34; FlashInfer 2.30 / 2.27 /
// 2.53; benchmarks/results/NVIDIA_H100_decode_kernel_times_s28.txt).
// Where a decode launch keeps the weight late with 4 or more vectors per thread (the fused kernel with more
// rows than SMs), it reads them batched: one L2 round trip instead of kVPT in a row.
template <typename T, int kVec, bool kFused>
cudaError_t dispatch(const NormParams& params, int vpt_hint, cudaStream_t stream) {
  NormParams p = params;
  int sms = 0;  // 0 where the count cannot be read: no decode rule, no late residual
  if (get_sm_count(&sms) != cudaSuccess) sms = 0;
  const int64_t sm64 = sms;
  // The fused op's 16-bit rows of 12288-15360 in 16-byte vectors from 60 x the SMs: the rounds kernel (norm_rounds.cuh;
  // session 45: +0.1 to +2.0 % over the vector kernel's 4 vectors a thread at 8192-65536 rows on the H200, +-0.2 % on
  // the H100). Only rows on 128-byte lines (rounds_lines_ok): at rows 16 bytes off a line it was 7-11 % slower than the
  // vector kernel (session 50, H200, bf16, 8192 and 16384 rows x 12296, 13320, 14416, 15352; 8192 x 14416 255.3 against
  // 237.0 us, 88 % of the copy; NVIDIA_H200_rounds_misaligned_s50.txt), where it won 0.3-0.6 % at 14336.
  if constexpr (kFused && kVec == 8 && sizeof(T) == 2) {
    if (vpt_hint == 0 && sms > 0 && p.d >= 12288 && p.d <= 15360 && p.rows >= kRoundsFromSms * sm64 &&
        rounds_lines_ok<T>(p))
      return dispatch_rounds<T>(p, stream);
  }
  // Narrow 16-bit rows of 2- and 4-element vectors, and odd rows, packed several to a block past a row count
  // (packed_pairs_group, packed_singles_group above). One block a row makes the block scheduler's rate the limit past a
  // few thousand rows: 65536 rows took 82-83 us at every such width up to 1024 (the copy of 65536 x 34 rmsnorm's bytes
  // 6 us; FlashInfer's kernels, one block a row too, the same or slower: NVIDIA_H200_narrow_table_s58.txt,
  // NVIDIA_H200_lib_ab_odd_narrow_s59.txt). H200, lib_ab, both dtypes, outputs within an ulp.
  // - Session 58, rows of 2-element vectors (a 4-element row is one of 2-element ones: one set of kernels) in groups of
  //   32 threads, 1-8 a thread, 8 rows a block, against one block a row (NVIDIA_H200_lib_ab_packed_pairs_rule_s58.txt):
  //   -2.5 to +503 % at 1-65536 rows x 34-510 (65536 x 34 fused 82.5 -> 14.2 us). Behind below a bound that grows with
  //   the row: for rmsnorm 0, 6 and 9 x the SMs up to 32, 64 and 128 pairs; the fused op's from 8 rows up to 128.
  // - Session 59, groups of two warps (64 threads, 4 rows a block; their sums through shared memory), 4 vectors a thread
  //   up to 256 pairs, 8 past (NVIDIA_H200_lib_ab_group64_s59.txt, ..._group64_bounds_s59.txt):
  //   - rmsnorm 129-256 pairs: +2 to +18 % over session 58's 32-thread groups (8 a thread, the weight late: 8 L2 round
  //     trips in a row) and one block a row at 1400-4000 rows, -5 to -19 % past 5000; so from 12 to 32 x the SMs, the
  //     32-thread groups past.
  //   - rmsnorm 257-512 pairs (514-1024 wide; session 58 had 514-768 in 32-thread groups of 16 a thread from 24 and
  //     32 x the SMs): +2 to +20 % from 2400 rows at 514-772 (65536 x 772 83.1 -> 55.8 us; 2112 rows 642-644 -3 to
  //     +1.5 %), so from 18 x the SMs up to 400 pairs; 898-1022 level or behind at 6000-8192 rows (-6.7 to +2.5 %),
  //     +0.2 to +7 % at 12000 and +3 to +30 % past (65536 x 1020 83.2 -> 71.0 us), so from 96 x.
  //   - the fused op 129-256 pairs: +1 to +12 % at 600-4224 rows against one block a row or the 32-thread groups (386:
  //     +11 % at 4000-4224), -0.5 to -2 % past 4224 and at 264-528 (508); so from 4 to 32 x the SMs. 257-384 pairs
  //     (514-768; the 2-element ones took the pieces kernel past 2^20 elements, below): -3 to -5.6 % at 4224 rows, +2.3
  //     to +5.4 % from 4500 (4-element rows -1.8 to +1.4 % at 4500-8192, +2.5 to +10 % at 16384-65536; 65536 x 514
  //     83.3 -> 75.1 us), so from 34 x. Wider, -0.7 to -3.6 % from 8192 rows (898-1022): not packed.
  // - Session 59, odd rows (single elements: NVIDIA_H200_lib_ab_odd_packed_s59.txt), against the short-row and peeled
  //   kernels, one block a row: rmsnorm in 32-thread groups, 2-16 elements a thread (the weight early), at 33-129 wide
  //   +4 to +14 % at 300-1000 rows and to 6x at 65536 (65536 x 33 82.3 -> 13.6 us); 257 and 385 -6 to +1.3 % at 300
  //   rows, +1.4 to +7.4 % at 600 and to 2.3x at 65536, so from 4 x the SMs. The fused op in 32-thread groups up to 128
  //   wide (+4 to +11 % at 300 rows, to 5.9x at 65536), in 64-thread groups past (129: +2 to +6 % at 300-1000 rows, where
  //   32-thread groups were -2.5 to +5.5 %; 257: -4.5 % at 300 rows, +1.6 to +65 % from 600; 385: -9 to +7 % to 4000
  //   rows, +0.9 to +6.7 % at 8192, +11 to +28 % past, so from 64 x the SMs past 320 wide). 513-1023 lost 2-44 % in
  //   either group (single-element loads against the peeled kernel's 16-byte chunks): not packed. Then
  //   (NVIDIA_H200_lib_ab_packed_rule_s59.txt): rmsnorm bf16 at 255 wide -1.3 to -5.6 % at 300-1000 rows (fp16 +2.6 to
  //   +7.1), so 193-256 from 8 x the SMs; the fused op at 449-511 -3.4 to -9.4 % at 8449 rows and -5.3 to +2.7 % at
  //   12673, so 385-448 from 96 x and none wider. As shipped then (..._packed_final_s59.txt): -1.1 to +277 %, every
  //   loss past 0.5 % at a shape the rule leaves alone (noise). Past 512 the single-element groups are issue-bound
  //   (Nsight Compute, NOTES.md session 59). At decode too (1-264 rows, against the short-row kernel: one block a row,
  //   one or two elements a thread; ..._odd_decode_packed_s59.txt): the fused op +5 to +11 % up to 128 wide, its
  //   two-warp groups +3 to +9 % at 129-255; rmsnorm +3 to +12 % up to 129, but at 161-191 bf16 -4.3 to +5 % (fp16 +3.4
  //   to +7.2) and in 32-thread groups of 8 at 193-255 bf16 -5.7 to +0.8 %: so at every row count the fused op up to
  //   256 wide and rmsnorm up to 128.
  if constexpr (sizeof(T) == 2 && (kVec == 2 || kVec == 4)) {
    const int pairs = p.d / 2;
    const int group = vpt_hint == 0 && sms > 0 ? packed_pairs_group(kFused, p.d, p.rows, sm64) : 0;
    constexpr int kPackedW = kFused ? kEarly : kLate;
    if (group == 32) {
      if (pairs <= 32) return launch<T, 2, 1, 32, kFused, kEarly>(p, 0, stream);
      if (pairs <= 64) return launch<T, 2, 2, 32, kFused, kPackedW>(p, 0, stream);
      if (pairs <= 128) return launch<T, 2, 4, 32, kFused, kPackedW>(p, 0, stream);
      return launch<T, 2, 8, 32, kFused, kPackedW>(p, 0, stream);
    }
    if (group == 64) {
      if (pairs <= 256) return launch<T, 2, 4, 64, kFused, kPackedW>(p, 0, stream);
      return launch<T, 2, 8, 64, kFused, kPackedW>(p, 0, stream);
    }
  }
  if constexpr (kVec == 1 && sizeof(T) == 2) {
    const int group = vpt_hint == 0 && sms > 0 ? packed_singles_group(kFused, p.d, p.rows, sm64) : 0;
    if (group == 32) {
      if (p.d <= 64) return launch<T, 1, 2, 32, kFused, kEarly>(p, 0, stream);
      if (p.d <= 128) return launch<T, 1, 4, 32, kFused, kEarly>(p, 0, stream);
      if constexpr (!kFused) {
        if (p.d <= 256) return launch<T, 1, 8, 32, kFused, kEarly>(p, 0, stream);
        return launch<T, 1, 16, 32, kFused, kEarly>(p, 0, stream);
      }
    }
    if constexpr (kFused) {
      if (group == 64) {
        if (p.d <= 256) return launch<T, 1, 4, 64, kFused, kEarly>(p, 0, stream);
        return launch<T, 1, 8, 64, kFused, kEarly>(p, 0, stream);
      }
    }
  }
  // rmsnorm's 16-bit rows of 1025-2048 past a row count (two_warp_rows), two warps a row, two rows a block (session 61):
  // one block a row left the block scheduler's rate the limit (82-86 us at 65536 rows, 79-87 % of the copy).
  // 16-byte rows in packed groups of 64 threads, 4 vectors a thread; the others (peel_ok) in the pieces kernel.
  if constexpr (!kFused && sizeof(T) == 2) {
    if (vpt_hint == 0 && two_warp_rows(kVec, p.d, p.rows, sm64)) {
      if constexpr (kVec == 8) return launch<T, 8, 4, 64, false, kLate>(p, 64 * kTwoWarpRowsRows, stream);
      if constexpr (kVec <= 4) {
        if (peel_ok<T, false>(p)) {
          const TwoWarpRoute route = two_warp_route<T, false, kVec == 1, kTwoWarpRowsRows>(p, sm64);
          // odd rows wider than kTwoWarpRowsOddMaxD past the one-warp band: the pieces kernel (dispatch_peeled)
          if (kVec != 1 || p.d <= kTwoWarpRowsOddMaxD || route != kTwoWarpPast)
            return launch_pieces_two_warp_rows<T, false, kVec == 1, kTwoWarpRowsRows>(p, route, stream);
        }
      }
    }
  }
  // 16-bit rows whose elements are not on 4-byte boundaries (odd widths, a view an element off): the peeled kernel
  // (norm_peeled.cuh) where x, the residual and out share the offset; its own vpt_hint values (1-8, +100, +200). Its
  // dispatch sends rows of up to 16384 past the one-wave rows on to the pieces kernel (kOdd; sessions 53-54).
  // Not short rows in a small grid (short_singles): those take single elements, one or two a thread (below).
  const bool singles = kVec == 1 && sizeof(T) == 2 && vpt_hint == 0 && short_singles(p, sms);
  if constexpr (kVec == 1 && sizeof(T) == 2) {
    const int v = vpt_hint % 100;
    if ((v == 0 || v == 1 || v == 2 || v == 4 || v == 8) && !singles && peel_ok<T, kFused>(p))
      return dispatch_peeled<T, kFused>(p, vpt_hint, sms, stream);
  }
  // The fused op's 16-bit rows of 2- and 4-element vectors (a width a multiple of 2 or 4 but not 8, or a view off a
  // 16-byte boundary) past decode: the peeled kernel's 16-byte chunks too (x and the residual are read and written twice
  // each, so the vector width counts double). The 4-byte kernel ran at 85-87 % of the copy at 8192-65536 x 14338, the
  // 8-byte one at 92-95 % at 4100 and 14340 (1.4-1.7x FlashInfer's time: its vectors there are as narrow;
  // NVIDIA_H200_issue_grid_s41.txt). H200, lib_ab, both dtypes, outputs within an ulp (2-4 in 10^6 round the other way:
  // the sums split differently). 2-element rows (NVIDIA_H200_lib_ab_peeled_pairs_s41.txt): at 300-32768 rows x
  // 2050-16382 +1 to +26 % (8192 x 14338 bf16 262.6 -> 237.9 us, 12802 +15 %), the losses 1000 x 4098 -3.5/-4.9 % and
  // 600-2000 x 2050 -0.4 to -1.9 %. 4-element rows (NVIDIA_H200_lib_ab_peeled_quads_s41.txt): from 8192 rows x 4100-14340
  // +0.3 to +3.1 %, at 2000-4500 rows 4100 and 5004 -3.1 to -0.1 % (9220-14340 +0.2 to +2.7 %), at 300-1000 -7 to +2
  // % (session 37): so only from 48 x the SMs. Not at decode (3-32 % slower there, session 37), not rmsnorm (-2 to -15 %
  // past decode at 2050-12802, session 37). Rows of 1024 elements or fewer (not measured; short ones share blocks) and
  // wider than the peeled kernel takes (kPeelMaxD) keep the vector kernels (1025-2048 until session 55: below).
  // Session 43: past the one-wave range (4 x the SMs), rows of up to 16384 take the pieces kernel instead (whole chunks
  // only in the chunk loop, the head and tail as words, line-aligned slots; norm_peeled.cuh). H200, lib_ab, both dtypes
  // (NVIDIA_H200_lib_ab_pieces_s43.txt, ..._pieces_mid_s43.txt): against the peeled kernel at 600-32768 rows x
  // 2050-16382 +0.5 to +21 % (8192 x 4100 bf16 72.5 -> 70.1 us; 1000 x 4098 +21 %), no case slower; against the 8-byte
  // kernel at 600-6000 rows x 4100-15364 -1.2 to +15 % (5004 at 1000 rows the loss), so 4-element rows of 4096+ from 4 x
  // the SMs; at 2052 -4.4 to +13 % (600-3000 rows mixed), so the shorter ones from 48 x as before. In the one-wave range
  // the peeled kernel's decode choice stays (the pieces kernel's 4 chunks a thread there: 300 x 2050 -14 %).
  if constexpr (kFused && (kVec == 2 || kVec == 4) && sizeof(T) == 2) {
    const int64_t from = (kVec == 2 ? 2 : 48) * sm64;
    // Session 55: rows of 1025-2048 too, in the pieces kernel only (2 chunks a thread: kPiecesShortD, with the
    // measurements); between 2 and 4 x the SMs those keep the 4-byte kernel (not measured there).
    if (vpt_hint == 0 && sms > 0 && p.d >= kPiecesShortMinD && p.d <= kPeelMaxD && peel_ok<T, kFused>(p)) {
      if (p.d <= kPiecesMaxD && p.rows > 4 * sm64 && (p.rows > from || p.d >= 4096))
        return dispatch_pieces<T>(p, sms, stream);
      if (p.rows > from && p.d > 2048) return dispatch_peeled<T, kFused>(p, vpt_hint, sms, stream);
    }
    // Session 57: rows of 2-element vectors 513-1024 wide past kPiecesNarrowPairElems elements too (norm_peeled.cuh,
    // with the measurements; narrower ones and 4-element rows keep the vector kernels).
    if (kVec == 2 && vpt_hint == 0 && sms > 0 && p.d > kPiecesNarrowPairMinD && p.d < kPiecesShortMinD &&
        p.rows * p.d > kPiecesNarrowPairElems && p.rows > 4 * sm64 && peel_ok<T, kFused>(p))
      return dispatch_pieces<T>(p, sms, stream);
  }
  // rmsnorm's 16-bit rows of 2-element vectors, and of 4-element ones from 3072 wide, past the one-wave range (session
  // 44): the pieces kernel too. H200, lib_ab, both dtypes, outputs within an ulp (NVIDIA_H200_lib_ab_rms_pieces_s44.txt,
  // ..._rows_s44.txt, ..._bounds_s44.txt, ..._final_s44.txt). 2-element rows against the 4-byte kernel: 3074-16382 wide
  // +0.3 to +35 % from 529 rows (8192 x 3074 bf16 +35 %, 8192 x 4098 43.1 -> 37.6 us); 2050-2054 -0.4 to -6.8 % at
  // 540-925 rows and +9.5 to +22 % from 991 (the 4-byte kernel steps up 12 % between 925 and 990 rows), so those past 7.5
  // x the SMs; 2562-2818 +-1 % to 7 x, +14 % from 7 x + 1. 4-element rows against the 8-byte kernel: from 793 rows x
  // 3076-16380 -0.7 to +17 % (1000 x 4100 10.05 -> 8.69 us), at 540-700 rows x 9220 -4.7 to -6.5 %, at 2052 and 2500 -3.5
  // to +2.8 %: so from 3072 wide and past 6 x. (The peeled kernel had been 2-15 % slower than the vector kernels for
  // rmsnorm past decode: session 37.) Session 62: 2-element rows from 3072 wide past 2 x the SMs, not 4 x: a survey of
  // time against rows (NVIDIA_H200_lib_ab_monotone_survey_s62.txt) had 400 rows of 6146 slower than 600 (9.23 against
  // 8.39 us); from 2 x (..._pairs_one_wave_s62.txt, 270-600 rows x 3074-16382, both dtypes) +0.2 to +41 % (12290 x 460
  // rows +40.7 %; 3074 +2 to +3 %); at decode rows (..._pairs_decode_s62.txt, 1-264) the pieces kernel lost 0.4-11 %.
  if constexpr (!kFused && (kVec == 2 || kVec == 4) && sizeof(T) == 2) {
    const int64_t from2 = (p.d < 2560 ? 15 : p.d < 3072 ? 14 : kVec == 2 ? 4 : 12) * sm64;  // twice the row bound
    if (vpt_hint == 0 && sms > 0 && p.d > 2048 && p.d <= kPiecesMaxD && (kVec == 2 || p.d >= 3072) &&
        2 * p.rows > from2 && peel_ok<T, kFused>(p))
      return dispatch_pieces<T, kFused>(p, sms, stream);
  }
  const int nvec = p.d / kVec;
  const int weight_hint = vpt_hint >= 200 ? kBatched : vpt_hint >= 100 ? kEarly : -1;  // tuning only
  vpt_hint %= 100;
  // Instantiated only where they pay (issue 16: the module's compile time; 462 kernels before, 266 after; 286 in
  // session 36, 316 with the peeled kernels of session 37):
  // - packed groups only at the widest vector: a narrower one means a width that is not a multiple of 16 bytes
  //   or an unaligned view, and such short rows (d <= 128 vectors) are rare enough to take the block path;
  // - the weight early or batched only with vectors of 2 or more elements and under 64 elements a thread (at 64
  //   the row alone holds 32 registers, the fused kernel's 64, and a held weight would spill): single elements
  //   (early at 1-2 a thread, 16-bit, since session 68) and rows past 16384 (16-bit) keep the weight late. Widths
  //   that are a multiple of 2 or 4 elements keep every decode choice up to 16384.
  constexpr bool kWidest = kVec == 16 / static_cast<int>(sizeof(T));
  // 16-bit rows of 33-128 vectors at the widest vector that take the block-mode choice for a wave (one vector a thread,
  // the weight early) instead of packed groups (below)
  const bool short_block = kWidest && sizeof(T) == 2 && sms > 0 && nvec > 32 && nvec <= 128 &&
                           p.rows <= (kFused ? 4 : nvec > 64 ? 16 : 8) * sm64;
  if constexpr (kWidest) {
    // Short rows, session 38. Packed groups are for the bandwidth: at up to 4 x the SM count (the decode and one-wave
    // rows below), 16-bit rows of 33-128 vectors (d 264-1024) take the block-mode choice there instead (one vector a
    // thread in blocks as wide as the row, the weight early). The packed groups had 8 rows to a block (so 256 rows
    // filled 32 SMs) and 2-4 vectors a thread with the weight late: 0.83-0.95x FlashInfer at 1-256 x 512-1024
    // (NVIDIA_H200_small_widths_s38.txt). lib_ab, 1-528 rows, both dtypes (NVIDIA_H200_lib_ab_short_rows_s38.txt): 320
    // wide +1.9 to +13 %, 512 +2.9 to +16 %, 640-1024 +8.7 to +32 %; at 128-256 wide (<= 32 vectors, one a thread in the
    // packed group already) -5.8 to +5.3 %, so those stay packed (the weight early since session 48, below).
    // Every output within an ulp (the sums split differently: 1-4 elements in 10^5 round the other way).
    // rmsnorm keeps that choice further, to 8 x the SM count at 33-64 vectors and 16 x at 65-128: H200, decode_configs.py
    // at 529-3200 rows x 320-1024 bf16 (NVIDIA_H200_decode_configs_short_rows_mid_s38.txt), the packed groups were
    // 0.89-0.99x FlashInfer at 600-1000 x 768-1024 (600 x 1024 5.95 us, FlashInfer 5.28; this choice 5.00). The choice
    // was 5-21 % faster than them at 529-1000 rows x 320-1024, and at 1300-2000 rows 6-11 % at 1024, 4-7 % at 768 to
    // 1600; past that (2000 x 768 -2 %, 1600 x 512 -3 %) the packed groups win. The one-wave rule's 2 vectors a thread
    // (vpt 102) were up to 7 % slower than 1 at 768. The fused op's packed rows, within 2 % of it at 529-1000 x 768-1024
    // and 3 % ahead at 320-512, stay.
    if (vpt_hint == 0 && weight_hint < 0 && !short_block) {
      // Packed rows of 16-bit types take the weight early at one vector a thread (rows of <= 32 vectors; session 48,
      // H200, lib_ab, both dtypes, outputs bit for bit the same as with the late weight): the fused op at 1-65536 rows
      // x 8-256 +0.2 to +9.2 %, no case slower (264 x 256 bf16 +9.2 %; NVIDIA_H200_lib_ab_fused_narrow_early_s48.txt);
      // rmsnorm -1.3 to +5.8 % past 16 x the SMs (the losses 65536 x 8 and 8448-16896 x 128-256, to -1.3 %). Up to 16 x
      // it is also ahead of norm_heads.cuh's kernel with every row its own group (which had beaten the late weight by
      // 0.8-10 %, NVIDIA_H200_lib_ab_narrow_route_s48.txt) by up to 2.2 % at 264-2112 rows, and behind it by up to
      // 1.1 % at 1 row (NVIDIA_H200_lib_ab_rms_narrow_early_s48.txt, trees b and c): so one kernel for every row count.
      constexpr int kNarrowW = sizeof(T) == 2 ? kEarly : kLate;
      if (nvec <= 1) return launch<T, kVec, 1, 1, kFused, kNarrowW>(p, 0, stream);
      if (nvec <= 2) return launch<T, kVec, 1, 2, kFused, kNarrowW>(p, 0, stream);
      if (nvec <= 4) return launch<T, kVec, 1, 4, kFused, kNarrowW>(p, 0, stream);
      if (nvec <= 8) return launch<T, kVec, 1, 8, kFused, kNarrowW>(p, 0, stream);
      if (nvec <= 16) return launch<T, kVec, 1, 16, kFused, kNarrowW>(p, 0, stream);
      if (nvec <= 32) return launch<T, kVec, 1, 32, kFused, kNarrowW>(p, 0, stream);
      // The fused kernel's 2 and 4 vectors take the weight early too (16-bit; session 38, lib_ab, 2048-262144 rows x
      // 320-1024, both dtypes): -0.4 to +7.3 % (2048 x 1024 +7 %), -1.7 to -1.4 % at 16384 x 768; rmsnorm keeps the
      // late weight there (-0.9 to +1.9 %, unchanged code).
      constexpr int kPackedW = kFused && sizeof(T) == 2 ? kEarly : kLate;
      // And from 16 x the SM count they run in 64-thread blocks (2 rows), not 256 (8): H200, lib_ab, 16384-262144 rows x
      // 512-1024, both dtypes, +0.5 to +3.0 % (65536 x 1024 bf16 134.2 -> 131.1 us; FlashInfer 131.0, the copy 130.0);
      // at 2048 rows -0.4 to -1.3 %, at 320 wide +-0.3 %; 32-thread blocks lost 1-49 % at 320-512
      // (NVIDIA_H200_lib_ab_short_rows_s38.txt).
      const int packed_block = kFused && sizeof(T) == 2 && sms > 0 && p.rows > 16 * sm64 ? 64 : 0;
      if (nvec <= 64) return launch<T, kVec, 2, 32, kFused, kPackedW>(p, packed_block, stream);
      if (nvec <= 128) return launch<T, kVec, 4, 32, kFused, kPackedW>(p, packed_block, stream);
    }
  }
  const bool decode = vpt_hint == 0 && sms > 0 && p.rows <= 2 * sm64;
  // Past decode, the rule's own ranges below are for 16-bit rows of 2+ element vectors (fp32 keeps the old rule). Until
  // session 39 only the widest vector: rows that are a multiple of 2 or 4 elements but not 8 kept 4 vectors a thread and
  // the weight late there, 0.96-0.98x FlashInfer at 482 x 1828 (H200, NVIDIA_H200_draw_seed40_s39.txt). With these
  // ranges, lib_ab, both dtypes (NVIDIA_H200_lib_ab_norm_narrow_past_s39.txt): rmsnorm at 1538-3076 wide +4.9 to +14.8 %
  // in the wave (300-528 rows), 1540 and 1828 +8 to +11 % to 1056 rows; the fused op +4.6 to +10.9 % in the wave, and at
  // 600-2048 rows +0 to +9.4 % for rows of <= 512 vectors (1540, 1828). Not the fused op's mid range for longer narrow
  // rows (769 vectors: 1538, 3076): -4.7 to +8.4 %. Widths of 1025+ vectors (4100, 6148, 8196, 14338) +-1 % (untouched).
  const bool past = kVec >= 2 && sizeof(T) == 2 && vpt_hint == 0 && sms > 0 && !decode;
  // One wave past decode (session 32): up to 4 x the SM count, 16-bit rows of <= 2 vectors a thread still take the
  // decode choices (one vector a thread, the weight early), while the grid is still one wave of resident blocks. The
  // rule's 4 vectors a thread and late weight lost to FlashInfer there by 2-8 % at 300-528 x 1536-5376 (300 x 3072
  // fp16 6.43 us, FlashInfer 5.95, NVIDIA_H100_issue19_sweep_norm_before_s32.txt); the decode choices were 2.6-16 %
  // faster for rmsnorm, up to 13 % for the fused kernel (+-2.3 % at 528 x 3584-5376), >= 1.02x FlashInfer everywhere
  // (H100, CUDA events, L2 flushed, NVIDIA_H100_decode_configs_past_decode_s32.txt). Not the fused kernel with
  // 512-thread blocks of 2 vectors (8192): there the early weight was 0.2-9 % slower than the rule at 300-528 rows.
  const bool wave = past && p.rows <= 4 * sm64 && nvec <= 2 * (kFused ? kMaxBlock - 32 : kMaxBlock);
  // the choices for a grid that runs as one wave (see above and below), and for the short rows above
  const bool latency = decode || wave || (vpt_hint == 0 && short_block) || singles;
  // Past that wave, 2 vectors a thread with the weight early, where the rule's 4 and late weight lost to FlashInfer
  // (H100, CUDA events, L2 flushed; NVIDIA_H100_decode_configs_mid_s32.txt, ..._fused_prefill_s32.txt):
  // - rmsnorm, rows of <= 512 vectors (16-bit d <= 4096) up to 8 x the SM count, of <= 256 up to 16 x: the rule was
  //   0.92-0.98x at 600-1000 x 1536-3072 (600 x 2048 fp16 0.92x); this choice 1.02-1.22x at 600-1000 rows x 1536-4096
  //   and 1.07-1.15x at 1200-1600 x 1536.
  // - fused_add_rmsnorm, rows of <= 1024 vectors (d <= 8192) up to 20 x the SM count: the rule 0.96-1.02x at 800-2600
  //   rows (1200 x 4096 bf16 0.96x, 900 x 5120 0.97x); this choice 1.01-1.06x at 1200-2600 rows x 2560-8192.
  // - fused_add_rmsnorm, narrow rows past that (session 33, H200, NVIDIA_H200_decode_configs_fused_past_mid_s33.txt):
  //   at <= 256 vectors (d <= 2048) this choice was 0.4-4.6 % faster than the rule's at 4000-32768 rows (3000 x 2048
  //   fp16 17.42 -> 16.00 us, FlashInfer 16.91); at <= 384 (d <= 3072) 0.4-3.7 % faster up to 16384 rows, 0.2-0.4 %
  //   slower at 32768. So every row count at <= 256 vectors, and to 64 x the SM count at <= 384. On the H100 the same
  //   choice was -0.4 to +2.0 % against that rule (NVIDIA_H100_decode_configs_fused_past_mid_new_s33.txt).
  const bool mid = past && p.rows > 4 * sm64 && (kWidest || !kFused || nvec <= kMaxBlock) &&
                   (kFused ? (nvec <= 2 * kMaxBlock && p.rows <= 20 * sm64) || nvec <= kMaxBlock / 2 ||
                                 (nvec <= 3 * kMaxBlock / 4 && p.rows <= 64 * sm64)
                           : (nvec <= kMaxBlock && p.rows <= 8 * sm64) || (nvec <= kMaxBlock / 2 && p.rows <= 16 * sm64));
  // The fused kernel at decode rows whose blocks share SMs (>= 1.5 x the SM count) and whose rows would take
  // 512-thread blocks of 2 vectors (8192): 256-thread blocks of 4 vectors, the weight still early. H200, 200-264 x
  // 8192: 2.7-5.4 % faster (264 x 8192 bf16 8.61 -> 8.19 us, FlashInfer 8.74; NVIDIA_H200_decode_configs_fused_decode_vpt4_s33.txt);
  // H100 200-264 x 8192: -0.7 to +3.5 % (NVIDIA_H100_decode_configs_fused_decode_new_s33.txt). At 4096-7168, or under
  // 1.5 x the SMs, it was -6.6 to +2.5 %, so those keep 1-2 vectors. Both grids are one wave; under Nsight Compute the
  // 256-thread blocks issue an instruction every 12.6 cycles a warp against 20.6 for the 512-thread ones, at half the
  // occupancy (NVIDIA_H200_ncu_fused_264x8192_bfloat16_s33.txt): the same loads from half the warps.
  const bool shared_sms = sms > 0 && 2 * p.rows >= 3 * sm64;  // about 1.5 blocks or more to an SM
  // A block of v vectors a thread is whole warps; the row fills it exactly when that block holds nvec vectors.
  auto block_of = [nvec](int v) { return static_cast<int>(ceil_div(ceil_div(nvec, v), 32) * 32); };
  auto fills = [&](int v) { return static_cast<int64_t>(block_of(v)) * v == nvec; };
  // The same at 400-1024 vectors (16-bit d 3200-8192) that do not fill the rule's block exactly (session 36): 4-vector
  // blocks instead of 1 vector a thread (up to 511 vectors) or 2 (512-1024), the weight early. lib_ab, 200-256 rows,
  // two runs each (NVIDIA_H{100,200}_lib_ab_fused_vpt4_narrow_s36.txt, ..._vpt4_mid_s36.txt):
  // - 3200-4000: H100 -0.2 to +1.9 %, H200 -0.7 to +1.4 % (3592-4000 fp16 +0.4 to +1.9 % on both);
  // - 4104-7000: H100 +0.8 to +4.2 %, H200 +1.4 to +5.3 % (256 x 6000 fp16 +5.1 %), where 2 vectors had the
  //   line-aligned mapping (kShift, below; it stays for those rows past decode).
  // Not the exact fits (4096, 5120, 7168: the exact-fit twins; at 4096 4 vectors were -2.5 to +0.3 % on the H100; but
  // from 1.5 x the SMs since session 69, below),
  // nor under 400 vectors (-4.1 to +2.2 % at 3000-3096, decode_configs.py).
  // Session 52: from fewer rows than 1.5 x the SMs where it pays (an H100 draw had 191 x 3600 and 194 x 3688 at
  // 1.045-1.05x FlashInfer with 1 vector a thread). decode_configs.py, 100-197 rows, both dtypes, 4 vectors (hint 104)
  // against the rule (NVIDIA_H{100,200}_decode_configs_fused_sub_sms{,2}_s52.txt):
  // - 641-1024 vectors (d 5128-8184; 2 vectors a thread before): from 133 rows (just past the SM count) H100 +0.6 to
  //   +3.8 %, H200 -0.3 to +4.5 % (one -1.5 %); at 100-120 rows -1.1 to +2.7 %, so rows past the SM count.
  // - 400-511 vectors (d 3200-4088; 1 vector before): from 160 rows H100 +0.2 to +1.9 %, H200 -0.6 to +2.8 %; at
  //   100-150 rows -3.2 to +1.4 %, so from 1.2 x the SMs.
  // - 512-640 vectors (4104, 5000): H100 -1.1 to +0.9 %, H200 -1.7 to +1.2 % at 133-197 rows: 1.5 x the SMs as before.
  const bool four_rows = nvec > 5 * kMaxBlock / 4 ? p.rows > sm64
                         : nvec < kMaxBlock       ? 5 * p.rows >= 6 * sm64
                                                  : shared_sms;
  // Session 69: the exact fits of 512-1024 vectors too (16-bit d 4096-8192 a multiple of 512: 4096, 4608, 5120, 6144,
  // 7168, 7680; one or two vectors a thread in blocks of 256-512 threads before), from 1.5 x the SMs. H200, lib_ab, 4
  // buffer sets, two passes (NVIDIA_H200_lib_ab_fused_exact_decode_s69.txt): at 198-264 rows bf16 +0.7 to +5.0 %, fp16
  // +0.3 to +3.6 % (256 x 4096 bf16 6.27 -> 6.09 us); at 133-160 rows (6144-7680: past the SM count, as the rows that do
  // not fill) -1.2 to +2.3 %, and 3584 (448 vectors) -1.5 to +1.0 %: so neither. The H100 had put 4096 at -2.5 to +0.3 %
  // at 177-256 rows in session 36 (NVIDIA_H100_lib_ab_fused_vpt4_narrow_s36.txt, against that session's kernels); not
  // re-measured there (the H100 not lent).
  const bool wide_shared = kFused && decode && kWidest && sizeof(T) == 2 &&
                           ((shared_sms && nvec >= kMaxBlock && nvec <= 2 * kMaxBlock) ||
                            (four_rows && nvec >= 400 && nvec <= 2 * kMaxBlock && !fills(nvec <= kMaxBlock ? 1 : 2)));
  int vpt = vpt_hint > 0 ? vpt_hint : wide_shared ? 4 : latency ? 1 : mid ? 2 : 4;
  while (ceil_div(nvec, vpt) > kMaxBlock && vpt * kVec < 64) vpt *= 2;
  // Session 69: single elements (the short-row kernel, below) at two a thread in blocks of more than 320 threads (16-bit
  // odd rows of 641-1024, or views an element off), past the SM count at decode: four a thread (blocks of 161-256) and
  // the batched weight. The session 68 rule leaves them the late weight there (early lost from 150 rows). H200, lib_ab,
  // 4 buffer sets, three builds of two passes each at 133-264 rows x 641-1023, both ops and dtypes
  // (NVIDIA_H200_lib_ab_norm_odd_four_rule_s69.txt, ..._odd_halved_s69.txt tree c, ..._odd_four_s69.txt tree b): rmsnorm
  // bf16 -0.6 to +3.0 % (mean +1.4), fp16 -1.7 to +2.0 (+0.4), the fused op bf16 -1.2 to +3.1 (+0.4), fp16 +1.1 to +5.0
  // (+3.1); widths that keep their launch (385, 625, 640) +-1.7 %. Not at 1-132 rows (the weight early already; four a
  // thread with it there -2.7 to +0.9 %), not the early weight at four a thread (-7.1 to +3.3 %,
  // ..._odd_four_weight_s69.txt), nor the fused op's residual stored late (-2.9 to +0.2 % from 1.5 x the SMs). Rows of
  // 385-511 (one a thread, blocks of 385-512) keep one: at two a thread -5.8 to +0.7 % (the weight late or early), at
  // four with the batched weight -6.9 to +0.3 %.
  const bool singles_four = kVec == 1 && sizeof(T) == 2 && singles && decode && p.rows > sm64 && vpt == 2 &&
                            block_of(2) > 320;
  if (singles_four) vpt = 4;
  if (ceil_div(nvec, vpt) > kMaxBlock || vpt * kVec > 64) return cudaErrorInvalidValue;
  const int block = block_of(vpt);
  // Early weight: rmsnorm always at decode (at 1 x 14338 bf16, 16 vectors of 4 bytes per thread: late 7.78 us,
  // batched 6.21, early 5.34; FlashInfer 8.19); the fused kernel while it holds <= 2 vectors per operand or has at
  // most one block per SM (128 x 16384: early 8.42, batched 8.96, late 9.41; 256 x 16384: 13.73 / 12.58 / 12.62;
  // H200, benchmarks/results/NVIDIA_H200_issue19_decode_weight.txt), and for 16-bit types at 4 vectors whatever the
  // rows (session 34). The loss at 256 x 16384 was bf16's early kernel holding 84 registers, one block an SM; with the
  // packed residual add (above) it holds 64, as fp16's did. Early against batched at 133-256 rows x 4100-16384, both
  // dtypes: H200 +3.4 to +6.6 %, H100 +2.8 to +7.4 % (256 x 16384 bf16 12.26 -> 11.71 us on the H200, FlashInfer 13.12;
  // NVIDIA_H{200,100}_lib_ab_decode_early4_s34.txt).
  // Narrower vectors, the same 32 elements a thread or fewer (session 36): 16-bit rows that are a multiple of 2 but
  // not 4 elements (4-byte vectors, 8 or 16 a thread: d 4098-16382) and of 4 but not 8 with blocks of <= 320 threads
  // (8-byte vectors, 8 a thread: d 8196-10240) had kept the batched weight past the SM count. Early against it at
  // 133-256 rows, two runs each (NVIDIA_H{100,200}_lib_ab_early_narrow_s36.txt): H100 +1.7 to +9.7 %, H200 +1.5 to
  // +16.6 % (256 x 8190 bf16 +16 %); 64 rows (early already) +-0.7 %. With 8-byte vectors the early kernel holds 82
  // registers, so 352+ threads fit one block an SM where the batched kernel's 64 fit two: at 10244 and 14340 it was
  // -4.8 to +2.3 % (H100, 133-256 rows), so those keep the batched weight.
  const bool early_narrow = sizeof(T) == 2 && (kVec == 2 || (kVec == 4 && block <= 320)) && vpt * kVec <= 32;
  // Session 56: rmsnorm's 16-bit rows of 8-byte vectors wider than 12288 (3073-4095 vectors, 8 a thread in blocks of
  // 392-512 threads) past the one-wave rows and up to 6 x the SMs (past that, rows in place take the pieces kernel,
  // above) read the weight early too. An H100 draw (seed 89) had 560 x 16300 fp16 at 0.967x FlashInfer (20.16 against
  // 19.39 us) with the late weight. decode_configs.py, H100, both dtypes (NVIDIA_H100_rms_wide_configs_s56.txt): at
  // 560-792 rows x 12292-16380 the early weight (hint 108) was 1.5-11.6 % faster than the late (560 x 16300 bf16 19.95
  // -> 17.99 us, FlashInfer 19.70), 1.08-1.16x FlashInfer; at 400-528 rows -5.4 to +1 %, so not there.
  const bool early_wide = !kFused && sizeof(T) == 2 && kVec == 4 && vpt == 8 && nvec > 6 * kMaxBlock && past &&
                          p.rows > 4 * sm64 && p.rows <= 6 * sm64;
  // Session 68: single elements (16-bit odd rows to 1024 wide, one or two a thread in a block as wide as the row: the
  // short-row kernel, short_singles) read the weight early too, up to one block an SM, and for blocks of up to 320
  // threads to 1.5 x the SMs. The early kernels had been instantiated for vectors of 2+ elements only, so these rows read
  // it after the reduction: an L2 round trip more on a decode block's chain (the first blocks' prefetch had brought the
  // weight into L2), as FlashInfer's kernel does. H200, lib_ab, both ops and dtypes, 4 buffer sets, FlashInfer as a third
  // tree, outputs identical (NVIDIA_H200_lib_ab_norm_odd_early_s68.txt, 1-1000 rows x 161-1023): at 1-132 rows rmsnorm
  // -0.2 to +11.7 %, the fused op's 257-1023 (its narrower odd rows are packed) +0.3 to +13.8 % (FlashInfer's time over
  // ours there 0.99-1.11x before, 1.03-1.20x after); at 264-1000 rows -2.6 to +1.6 %. Between, two passes
  // (..._past_sms_s68.txt, 133-264 rows): blocks of 192-320 threads (161-257, 513-640 wide) -0.4 to +4.2 % to 200
  // rows (-2.5 to +2.9 % at 230); blocks of 416-512 (385-511, 769-1023) -0.3 to +3.9 % at 133 rows, -3.1 to +2.9 %
  // from 150.
  const bool singles_early = kVec == 1 && sizeof(T) == 2 && vpt <= 2 &&
                             (p.rows <= sm64 || (block <= 320 && 2 * p.rows <= 3 * sm64));
  const bool early = mid || wide_shared || early_wide ||
                     (latency && (kVec > 1 || singles_early) &&
                      (!kFused || vpt <= 2 || p.rows <= sms || (sizeof(T) == 2 && vpt == 4) || early_narrow));
  // The fused kernel's residual store: right after the add (during the reduction, off the chain) while a block has an
  // SM nearly to itself, with the output once about 1.5 blocks or more share each SM: then a block's stores no longer
  // interleave with the loads of the blocks beside it. H100, CUDA events, L2 flushed, both in one process
  // (benchmarks/explore/lib_ab.cu; NVIDIA_H100_lib_ab_res_late_s30.txt): 256 x 8192 bf16 10.08 -> 9.63 us, 256 x 4096
  // 7.09 -> 6.98, 2048 x 1536 12.67 -> 12.22; but 133 x 8192 +3-7 %, 1-128 rows +0-4 %, decode rows of 1536 +-0.5 %,
  // at prefill with vectors under 16 bytes (x 14340) +0.5-1 %, and at decode with 4 vectors a thread (256 x 16384:
  // 15.1 -> 16.1 us, FlashInfer 16.1; 256 x 4100: 7.7 -> 8.0). A copy kernel shows the same effect: its loads, one
  // barrier, then its stores beat the plain copy by 5 % at 128-256 x 4096 (explore/norm_decode_pipe.cu, barcopy).
  // Past decode, 16-bit rows of 1537-2048 vectors (12288 < d <= 16384: blocks of 416-512 threads with 4 vectors, two
  // blocks an SM) store the residual early again. H200, lib_ab, 4000-65536 rows x 13312-16384: 0.2-0.9 % faster (16384
  // x 16384 bf16 526.2 -> 523.3 us), 12288 -0.1 to +0.1 %; H100 -0.1 to +0.3 %
  // (NVIDIA_H{200,100}_lib_ab_res_early_wide_s34.txt).
  // Early at every prefill width was 0.8-1.4 % slower at 4096-8192 (NVIDIA_H200_lib_ab_res_early_stcs_s34.txt). Wider
  // rows (8 vectors a thread) were not timed and keep it late.
  if constexpr (kFused) {
    p.res_late = shared_sms && (p.rows > 2 * sm64
                                    ? kWidest && !(sizeof(T) == 2 && vpt == 4 && nvec > 3 * kMaxBlock)
                                    : vpt <= 2 && p.d * static_cast<int>(sizeof(T)) >= 8192);
  }
  int weight = weight_hint >= 0 ? weight_hint : early ? kEarly : decode && vpt >= 4 ? kBatched : kLate;
  // The early kernel at the widest vector and <= 2 vectors a thread has an exact-fit twin (kFit = kExact: no test of the
  // vector index) for rows that fill the block's threads exactly: for 16-bit types d a multiple of 256 up to 4096 and
  // of 512 up to 8192, which most model widths are (1536, 2048, 4096, 5120, 7168, 8192; not 2880 or 4100). H100, one
  // process, bits unchanged (NVIDIA_H100_lib_ab_exact_s31.txt):
  // - rmsnorm 1.0-3.7 % faster at 1-256 rows x 1536-8192, both dtypes. With 4 vectors a thread (12288, 16384) the twin
  //   was 0.5-1 % slower at 1-32 rows, so there is none.
  // - fused_add_rmsnorm fp16 0.2-4.3 % faster, bf16 -1.7 to +0.4 % at 1536-7168; but bf16 with 512-thread blocks
  //   (4096, 8192) 0.4-1.2 % slower in three runs, so that case keeps the tested kernel. fp32 follows fp16 (not timed).
  const bool exact = fills(vpt);
  constexpr bool kBf16 = sizeof(T) == 2 && !std::is_same<T, half>::value;  // fp16 / fp32 TUs omit cuda_bf16.h
  const bool fused_exact_ok = !kFused || !kBf16 || block < kMaxBlock;
  // Decode rows that do not fill the block exactly: rmsnorm's early kernel with 2 vectors of 16 bytes a thread (16-bit
  // d 4104-8184), or 4 up to 12288, tests only the last vector (kFit = kLast), since the others all lie in the row;
  // their loads then issue before any test. lib_ab, 1-256 rows, both dtypes (NVIDIA_H200_lib_ab_last_only_s36.txt,
  // NVIDIA_H100_lib_ab_last_only_shift_s36.txt):
  // - H200, 12 widths (144 cases): 2 vectors 0.8-4.0 % faster (241 x 5000 fp16 5.68 -> 5.60 us), 4 vectors -0.1 to
  //   +3.4 % at 8200-11000; H100, 8 widths: 2 vectors 0.1-3.1 %, 4 vectors at 9000-11000 0.1-3.2 %.
  // - Wider, 4 vectors gain less: 13000 -0.1 to +2.3 % (H200) and -1.0 to +2.7 % (H100), 16376 -0.9 to +1.5 % and
  //   -1.4 to +1.1 %; so not past 1536 vectors.
  // Not past decode (the one-wave and mid ranges' 2 vectors: -7.2 to +3.8 % on the H200, 528 x 7000 fp16 8.17 -> 8.81
  // us), nor the fused kernel (4 vectors of 16 bytes: +0.3 to -14 %, 74 registers against 64 at fp16), nor narrower
  // vectors or 8 and 16 vectors a thread (-6.2 to +14.3 %).
  constexpr bool kLastOk = !kFused && kWidest && sizeof(T) == 2;
  // The fused kernel with 2 vectors of 16 bytes a thread (the early weight: the one-wave and mid rows past decode; at
  // decode such rows now take 4 vectors, above; 16-bit d <= 8192) on rows that do not fill the block, once about 1.5
  // blocks or more share each SM: the line-aligned mapping (kShift),
  // where the block has the spare vectors (up to 7; 8184 has 1 and keeps the plain one). Rows of such widths start off
  // their 128-byte line (7000 bf16: 14000 bytes a row). lib_ab (NVIDIA_H200_lib_ab_shift_s36.txt,
  // NVIDIA_H100_lib_ab_last_only_shift_s36.txt):
  // - H200, 200-2600 rows x 3000-7000 (6 widths): bf16 -0.6 to +7.9 % (256 x 7000 +4.0 %), fp16 -1.3 to +2.2 %;
  // - H100, 200-2000 rows x 3000-7000: bf16 -0.4 to +5.7 %, fp16 -0.9 to +5.2 %.
  // At 64-177 rows it was -2.5 to +0.4 % (H200), with 1 vector a thread -0.9 to +0.6 %, with 4 (13000: more registers,
  // fewer blocks an SM) 2-13 % slower, and rmsnorm's kernels -4.5 to +2.2 %. The sums then split the row differently,
  // so rstd may round differently.
  const bool shifted = kFused && kWidest && sizeof(T) == 2 && vpt == 2 && shared_sms && !exact &&
                       static_cast<int64_t>(block) * vpt >= nvec + 128 / (kVec * static_cast<int>(sizeof(T))) - 1;
  // The fused prefill kernel (4 vectors of 16 bytes a thread, the weight late: 16-bit d 8200-16376 past 2 x the SMs) on
  // rows that do not start on 128-byte lines: the line-aligned mapping too (no spare vectors needed: the first
  // threads' first vectors wrap to the row's end). It holds 60 registers against 54: blocks of 288 and 352-384
  // threads fit one fewer an SM, so up to 4 x the SMs (the rows one wave of the plain kernel holds) only blocks of
  // 416 threads or more (d > 12288) take it. Session 51, H200: a copy of such rows mapped from the row's first element
  // ran 3.5-5.3 % behind a flat copy of the same bytes, from its line 0.5-1.8 % closer (row_lines_copy.cu). lib_ab, both
  // dtypes (NVIDIA_H200_lib_ab_shift4_wrap_s51.txt): +0.6 to +6.8 % at 600-14664 rows x 8200-16376 (8192 x 16376 bf16
  // 268.0 -> 265.0 us: 95.7-96.6 % of the copy, was 94.5-95.3); H100 +0.6 to +5.3 % (NVIDIA_H100_lib_ab_s51.txt).
  const bool shifted4 = kFused && kWidest && sizeof(T) == 2 && vpt == 4 && past && weight == kLate && !exact &&
                        nvec > 2 * kMaxBlock && (p.rows > 4 * sm64 || nvec > 3 * kMaxBlock) &&
                        !rows_on_lines<T>(p.input, p.in_stride);
  const bool last_only = decode && !exact && (vpt == 2 || (vpt == 4 && nvec <= 3 * kMaxBlock)) &&
                         static_cast<int64_t>(block) * (vpt - 1) <= nvec;
  if (weight == kBatched && vpt < 4) weight = kLate;  // not instantiated below 4 vectors per thread
  auto go = [&](auto vpt_c) -> cudaError_t {
    constexpr int kV = decltype(vpt_c)::value;
    // single elements: early at one or two a thread (session 68), batched at four (session 69)
    constexpr bool kSingles = kVec == 1 && sizeof(T) == 2;
    if constexpr ((kVec > 1 || (kSingles && kV <= 4)) && kV * kVec < 64) {
      if constexpr (kVec > 1 || kV <= 2) {  // no early kernel for single elements at four a thread
        if (weight == kEarly) {
          if constexpr (kWidest && kV <= 2) {
            if (exact && fused_exact_ok) return launch<T, kVec, kV, 0, kFused, kEarly, kExact>(p, block, stream);
          }
          if constexpr (kFused && kWidest && sizeof(T) == 2 && kV == 2) {
            if (shifted) return launch<T, kVec, kV, 0, kFused, kEarly, kTested, true>(p, block, stream);
          }
          if constexpr (kLastOk && (kV == 2 || kV == 4)) {
            if (last_only) return launch<T, kVec, kV, 0, kFused, kEarly, kLast>(p, block, stream);
          }
          return launch<T, kVec, kV, 0, kFused, kEarly>(p, block, stream);
        }
      }
      if constexpr (kV >= 4) {
        if (weight == kBatched) return launch<T, kVec, kV, 0, kFused, kBatched>(p, block, stream);
      }
    }
    if (weight != kLate && weight_hint >= 0) return cudaErrorInvalidValue;  // a forced weight without its kernel
    if constexpr (kFused && kWidest && sizeof(T) == 2 && kV == 4) {
      if (shifted4) return launch<T, kVec, kV, 0, kFused, kLate, kTested, true>(p, block, stream);
    }
    return launch<T, kVec, kV, 0, kFused, kLate>(p, block, stream);
  };
  switch (vpt) {
    case 1: return go(std::integral_constant<int, 1>{});
    case 2: return go(std::integral_constant<int, 2>{});
    case 4: return go(std::integral_constant<int, 4>{});
    case 8: return go(std::integral_constant<int, 8>{});
    case 16: if constexpr (kVec <= 4) return go(std::integral_constant<int, 16>{}); break;
    case 32: if constexpr (kVec <= 2) return go(std::integral_constant<int, 32>{}); break;
  }
  return cudaErrorInvalidValue;
}

}  // namespace norm_detail

// Launch RMSNorm (kFused = false) or fused add + RMSNorm (kFused = true) on `stream`.
// Rows are register-resident: d <= 32768 with vectors of 2 or more elements, d <= 32760 in the peeled kernel, d <=
// 16384 with single elements (cudaErrorInvalidValue beyond). The vector is the widest of 16 / sizeof(T)
// elements, half that, a quarter, or 1 that divides d, every row stride and every pointer's
// alignment. Falling straight from 16 bytes to single elements cost 1.7-4x at hidden sizes that are a
// multiple of 4 but not 8 (4100, 14338 / 2): single-element loads are 8x the instructions and requests.
// 16-bit rows left with single elements (odd widths) take the peeled kernel instead where it applies (dispatch).
template <typename T, bool kFused>
cudaError_t RMSNormLauncher(norm_detail::NormParams p, int vpt_hint, cudaStream_t stream) {
  using namespace norm_detail;
  if (p.rows <= 0 || p.d <= 0) return cudaSuccess;
  p.inv_d = 1.0f / static_cast<float>(p.d);
  auto fits = [&](int vec) {
    const int bytes = vec * static_cast<int>(sizeof(T));
    return p.d % vec == 0 && p.in_stride % vec == 0 && p.out_stride % vec == 0 &&
           (!kFused || p.res_stride % vec == 0) && is_aligned(p.input, bytes) && is_aligned(p.out, bytes) &&
           is_aligned(p.weight, bytes) && (!kFused || is_aligned(p.residual, bytes));
  };
  constexpr int kMaxVec = 16 / sizeof(T);
  if (fits(kMaxVec)) return dispatch<T, kMaxVec, kFused>(p, vpt_hint, stream);
  if constexpr (kMaxVec >= 4) {
    if (fits(kMaxVec / 2)) return dispatch<T, kMaxVec / 2, kFused>(p, vpt_hint, stream);
  }
  if constexpr (kMaxVec >= 8) {
    if (fits(kMaxVec / 4)) return dispatch<T, kMaxVec / 4, kFused>(p, vpt_hint, stream);
  }
  return dispatch<T, 1, kFused>(p, vpt_hint, stream);
}

}  // namespace flashinfer_nb
