// RMSNorm over rows in two levels: groups of `heads` rows `in_stride` apart, the groups `in_gstride` apart (and the
// same for `out` with its own strides). The case is the per-head norm of a query or key slice of a fused QKV buffer
// (Qwen3, Gemma 3: q of shape (batch, heads, head_dim) with strides (3 * heads * head_dim, head_dim, 1) or the like),
// whose rows no single stride describes; FlashInfer's rmsnorm takes such 3-D input with its per-head kernel. Rows a
// single stride describes never come here: they take the kernels of norm.cuh (the binding decides; csrc/norm.cpp).
// (Session 48 sent rmsnorm's one-level rows of <= 32 vectors here for a commit; norm.cuh's packed rows with the weight
// early then measured up to 2.2 % faster at 264-2112 rows, at most 1.1 % slower at 1-32: see above its packed launches.)
//
// One kernel shape for every width: a group of G threads a row (G a power of two up to 32, so the sum is warp shuffles
// only; compiled in at the widest vector; the row's group found by a multiply-high, not a divide), kU vectors a thread
// in flight (1 for rows of up to 32 vectors, one a thread: fewer registers, more blocks an SM; else 4). Rows of up to
// G * kU vectors stay in registers with their weight, loaded together (one DRAM round trip at decode); longer rows are
// summed in passes and read again for the output (from L1 / L2). Accumulation in fp32 and the output's rounding as
// norm.cuh. Measurements: NOTES.md, session 47.
// Framework-agnostic: raw pointers, no torch or TVM-FFI headers.
#pragma once
#include "norm_launch.h"
#include "norm_peeled.cuh"  // add_square_pair, normalise_pair: the kernels' shared steps
#include "vec.cuh"

namespace flashinfer_nb {

namespace norm_detail {

constexpr int kHeadsBlock = 256;  // threads a block: 256 / G rows

// A whole vector of kVec elements into the sums of squares, and normalised: norm_peeled.cuh's pair steps where kVec is
// even (norm.cuh's rmsnorm_rows writes the same steps out inline; calling these there renames its registers).
template <typename T, int kVec>
__device__ __forceinline__ void add_squares(const VecN<T, kVec>& x, float& ss, float& ss_odd) {
  if constexpr (kVec % 2 == 0) {
#pragma unroll
    for (int j = 0; j < kVec; j += 2) add_square_pair(x, j, ss, ss_odd);
  } else {
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
      const float v = to_float(x.data[j]);
      if (j % 2 == 0) ss += v * v; else ss_odd += v * v;
    }
  }
}

template <typename T, int kVec>
__device__ __forceinline__ VecN<T, kVec> normed(const VecN<T, kVec>& x, const VecN<T, kVec>& w, float rstd,
                                                float bias) {
  VecN<T, kVec> o;
  if constexpr (kVec % 2 == 0) {
#pragma unroll
    for (int j = 0; j < kVec; j += 2) normalise_pair<T>(x, w, j, rstd, bias, o);
  } else {
    convert_pairs(o, [&](int j) { return to_float(x.data[j]) * rstd * (to_float(w.data[j]) + bias); });
  }
  return o;
}

template <typename T, int kVec, int kU, int kG = 0>
__global__ void __launch_bounds__(kHeadsBlock) RMSNormHeadsKernel(const NormParams p, const int log2_group,
                                                                  const unsigned magic, const int shift) {
  using V = VecN<T, kVec>;
  const int group = kG > 0 ? kG : 1 << log2_group;  // kG > 0: the group size compiled in (the shuffles unrolled)
  const int lane = threadIdx.x & (group - 1);
  const int64_t row = kG > 0 ? static_cast<int64_t>(blockIdx.x) * (kHeadsBlock / kG) + threadIdx.x / kG
                             : static_cast<int64_t>(blockIdx.x) * (kHeadsBlock >> log2_group) +
                                   (threadIdx.x >> log2_group);
  // Dead threads of the last block still join the shuffles (their sums stay 0).
  const bool live = row < p.rows;
  // The group: row / heads as a multiply-high and a shift (magic, shift: the launcher; rows < 2^31), not a divide
  const unsigned r32 = static_cast<unsigned>(row);
  const int64_t g = (__umulhi(r32, magic) + r32) >> shift;
  const int64_t h = row - g * p.heads;
  const V* in = reinterpret_cast<const V*>(static_cast<const T*>(p.input) + g * p.in_gstride + h * p.in_stride);
  V* out = reinterpret_cast<V*>(static_cast<T*>(p.out) + g * p.out_gstride + h * p.out_stride);
  const V* w = reinterpret_cast<const V*>(p.weight);
  const int nvec = p.d / kVec;
  const int span = group * kU;  // the vectors one pass of the group covers
  const bool one_pass = kU == 1 || nvec <= span;  // kU = 1: G >= nvec (the launcher); the passes are compiled out
  V xv[kU], wv[kU];
  float ss = 0.f, ss_odd = 0.f;
  pdl_wait();  // PDL: every read and write after the kernel before has finished
  if (one_pass) {
#pragma unroll
    for (int k = 0; k < kU; ++k) {
      const int i = lane + k * group;
      if (live && i < nvec) {
        xv[k] = in[i];
        wv[k] = w[i];
      }
    }
    pdl_launch_dependents();
#pragma unroll
    for (int k = 0; k < kU; ++k)
      if (live && lane + k * group < nvec) add_squares(xv[k], ss, ss_odd);
  } else if constexpr (kU > 1) {
    pdl_launch_dependents();
    for (int base = 0; base < nvec; base += span) {
#pragma unroll
      for (int k = 0; k < kU; ++k) {
        const int i = base + lane + k * group;
        if (live && i < nvec) xv[k] = in[i];
      }
#pragma unroll
      for (int k = 0; k < kU; ++k)
        if (live && base + lane + k * group < nvec) add_squares(xv[k], ss, ss_odd);
    }
  }
  ss += ss_odd;
  if constexpr (kG > 0) {
#pragma unroll
    for (int o = kG / 2; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  } else {
    for (int o = group / 2; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  }
  if (!live) return;
  const float rstd = rsqrtf(ss * p.inv_d + p.eps);
  if (one_pass) {
#pragma unroll
    for (int k = 0; k < kU; ++k) {
      const int i = lane + k * group;
      if (i < nvec) out[i] = normed(xv[k], wv[k], rstd, p.weight_bias);
    }
    return;
  }
  if constexpr (kU > 1) {
    for (int base = 0; base < nvec; base += span) {
#pragma unroll
      for (int k = 0; k < kU; ++k) {
        const int i = base + lane + k * group;
        if (i < nvec) xv[k] = in[i];
      }
#pragma unroll
      for (int k = 0; k < kU; ++k) {
        const int i = base + lane + k * group;
        if (i < nvec) out[i] = normed(xv[k], w[i], rstd, p.weight_bias);
      }
    }
  }
}

}  // namespace norm_detail

// RMSNorm over rows in two levels (p.heads > 0 rows a group; norm_launch.h). The vector is the widest of 16 / sizeof(T)
// elements, half that, a quarter, or 1 that divides d, both strides of both tensors and every pointer's alignment.
template <typename T>
cudaError_t RMSNormHeadsLauncher(norm_detail::NormParams p, cudaStream_t stream) {
  using namespace norm_detail;
  if (p.rows <= 0 || p.d <= 0) return cudaSuccess;
  if (p.heads <= 0 || p.rows >= (1ll << 31)) return cudaErrorInvalidValue;  // the group divide takes rows < 2^31
  p.inv_d = 1.0f / static_cast<float>(p.d);
  auto fits = [&](int vec) {
    const int bytes = vec * static_cast<int>(sizeof(T));
    return p.d % vec == 0 && p.in_stride % vec == 0 && p.out_stride % vec == 0 && p.in_gstride % vec == 0 &&
           p.out_gstride % vec == 0 && is_aligned(p.input, bytes) && is_aligned(p.out, bytes) &&
           is_aligned(p.weight, bytes);
  };
  auto go = [&](auto vec_c) -> cudaError_t {
    constexpr int kV = decltype(vec_c)::value;
    const int nvec = p.d / kV;
    int log2_group = 0;  // the fewest threads that hold the row one vector each, up to a warp
    while (log2_group < 5 && (1 << log2_group) < nvec) ++log2_group;
    const dim3 g(static_cast<unsigned>(ceil_div(p.rows, kHeadsBlock >> log2_group))), b(kHeadsBlock);
    // row / heads = (umulhi(row, magic) + row) >> shift for row < 2^31 (Granlund and Montgomery's round-up method)
    int shift = 0;
    while ((int64_t{1} << shift) < p.heads) ++shift;
    const unsigned magic = static_cast<unsigned>(((1ull << 32) * ((1ull << shift) - p.heads)) / p.heads + 1);
    // At the widest vector the group size is compiled in: rows of 1-32 vectors (head sizes 8-256 at 16 bits). With the
    // divide above, 0.15-0.23 us off the decode launches against a runtime group and a divide instruction sequence
    // (H200, heads_decode.py, NVIDIA_heads_decode_s47.txt); narrower vectors (strides off 16 bytes) keep it at run
    // time.
    if constexpr (kV == 16 / static_cast<int>(sizeof(T))) {
      switch (nvec <= 32 ? log2_group : -1) {
        case 0: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 1>, g, b, stream, p.pdl, p, 0, magic, shift);
        case 1: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 2>, g, b, stream, p.pdl, p, 1, magic, shift);
        case 2: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 4>, g, b, stream, p.pdl, p, 2, magic, shift);
        case 3: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 8>, g, b, stream, p.pdl, p, 3, magic, shift);
        case 4: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 16>, g, b, stream, p.pdl, p, 4, magic, shift);
        case 5: return launch_kernel(RMSNormHeadsKernel<T, kV, 1, 32>, g, b, stream, p.pdl, p, 5, magic, shift);
      }
    }
    if (nvec <= 32)
      return launch_kernel(RMSNormHeadsKernel<T, kV, 1>, g, b, stream, p.pdl, p, log2_group, magic, shift);
    return launch_kernel(RMSNormHeadsKernel<T, kV, 4>, g, b, stream, p.pdl, p, log2_group, magic, shift);
  };
  constexpr int kMaxVec = 16 / sizeof(T);
  if (fits(kMaxVec)) return go(std::integral_constant<int, kMaxVec>{});
  if constexpr (kMaxVec >= 4) {
    if (fits(kMaxVec / 2)) return go(std::integral_constant<int, kMaxVec / 2>{});
  }
  if constexpr (kMaxVec >= 8) {
    if (fits(kMaxVec / 4)) return go(std::integral_constant<int, kMaxVec / 4>{});
  }
  return go(std::integral_constant<int, 1>{});
}

}  // namespace flashinfer_nb
