// scale: out[i] = in[i] * factor, computed in fp32. The tutorial op, written for bandwidth:
// 16-byte vector loads/stores, a grid sized from the tensor and the GPU's SM count (capped at
// kMaxWaves resident waves), int64 indexing, and a scalar path for the unaligned head and the tail.
#pragma once
#include <type_traits>

#include "scale_launch.h"
#include "vec.cuh"

namespace flashinfer_nb {

namespace scale_detail {

// FLASHINFER_NB_SCALE_THREADS / _UNROLL: set only by tuned module variants (flashinfer_nb.scale.gen_scale_variant,
// picked per GPU, dtype and size from the tuning database, nbs/15_tune.ipynb); the default module sets neither.
#ifndef FLASHINFER_NB_SCALE_THREADS
#define FLASHINFER_NB_SCALE_THREADS 256
#endif
constexpr int kThreads = FLASHINFER_NB_SCALE_THREADS;
constexpr int kBlocksPerSM = 2048 / kThreads;  // resident blocks per SM at full occupancy
constexpr int kMaxWaves = 256;                 // grid cap, in full-occupancy waves of the GPU

template <typename T>
__device__ __forceinline__ Vec16<T> scale_vec(Vec16<T> v, float factor) {
#pragma unroll
  for (int k = 0; k < Vec16<T>::kSize; ++k) v.data[k] = from_float<T>(to_float(v.data[k]) * factor);
  return v;
}

// [0, head) and [head + n_vec * kSize, n) are scalar; the middle is 16-byte vectors. A block moves
// tiles of kUnroll * kThreads contiguous vectors, kUnroll loads in flight per thread. Large tensors use
// kUnroll = 1: short blocks let the block scheduler keep every SM fed to the end, and a grid capped at
// one wave measured 8-40% slower. Small tensors use 8 (up to half a wave of blocks) or 4 (up to two
// waves): more bytes in flight when there are too few blocks to hide latency (NOTES.md v4, v5).
// kScalar = false is the common case (aligned, a multiple of the vector width): without the scalar
// code the compiler schedules the vector loop better (measured ~5% at 4 Mi fp32, NOTES.md).
// The kUnroll = 8 path (grid at most half a wave) is one tile per block, loaded with an L2 256-byte
// prefetch hint: the config that measured fastest at 2^20-2^22 in an interleaved sweep (H100, NOTES.md v5).
// kBlock (threads per block) is a parameter only so launch configs can be explored
// (benchmarks/explore/scale_cfg.cu); the launcher uses kThreads.
template <typename T, int kUnroll, bool kScalar, int kBlock = kThreads>
__global__ void __launch_bounds__(kBlock)
    ScaleKernel(const T* __restrict__ in, T* __restrict__ out, float factor, int64_t n,
                int64_t head, int64_t n_vec) {
  constexpr int kSize = Vec16<T>::kSize;
  constexpr int64_t kTile = static_cast<int64_t>(kBlock) * kUnroll;
  const T* vin = kScalar ? in + head : in;
  T* vout = kScalar ? out + head : out;
  auto tile = [&](int64_t base) {
    Vec16<T> v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock + threadIdx.x;
      if (i < n_vec) v[u] = kUnroll >= 8 ? load_vec16_l2_256(vin + i * kSize) : load_vec16(vin + i * kSize);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t i = base + u * kBlock + threadIdx.x;
      if (i < n_vec) store_vec16(vout + i * kSize, scale_vec(v[u], factor));
    }
  };
  if constexpr (kUnroll >= 8) {
    // Small tensors only: the launcher's grid covers n_vec in one tile per block, so no grid-stride loop
    // (without it the kernel measured 1-3 % faster at 2^21, NOTES.md v5).
    tile(static_cast<int64_t>(blockIdx.x) * kTile);
  } else {
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * kTile; base < n_vec;
         base += static_cast<int64_t>(gridDim.x) * kTile)
      tile(base);
  }

  if constexpr (!kScalar) return;
  // Scalar elements: the unaligned head, then the tail after the last full vector.
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kBlock;
  const int64_t tail_begin = head + n_vec * kSize;
  const int64_t n_scalar = head + (n - tail_begin);
  for (int64_t j = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; j < n_scalar; j += stride) {
    const int64_t idx = j < head ? j : tail_begin + (j - head);
    out[idx] = from_float<T>(to_float(in[idx]) * factor);
  }
}

}  // namespace scale_detail

// Launch scale on `stream`. `in` and `out` may have any element alignment; the vector path is
// used when both share the same offset modulo 16 bytes (always true for fresh allocations).
template <typename T>
cudaError_t ScaleLauncher(const T* in, T* out, float factor, int64_t n, cudaStream_t stream) {
  using namespace scale_detail;
  if (n <= 0) return cudaSuccess;
  constexpr int kSize = Vec16<T>::kSize;
  const auto in_mis = reinterpret_cast<uintptr_t>(in) % 16;
  const auto out_mis = reinterpret_cast<uintptr_t>(out) % 16;
  int64_t head = n, n_vec = 0;  // default: all scalar
  if (in_mis == out_mis) {
    head = in_mis == 0 ? 0 : static_cast<int64_t>((16 - in_mis) / sizeof(T));
    if (head > n) head = n;
    n_vec = (n - head) / kSize;
  }
  int sms = 0;
  cudaError_t st = get_sm_count(&sms);
  if (st != cudaSuccess) return st;
  const int64_t wave = static_cast<int64_t>(sms) * kBlocksPerSM;
  const int64_t max_blocks = wave * kMaxWaves;
  const int64_t scalar_blocks = ceil_div(n - n_vec * kSize, kThreads);
  const bool scalar = n_vec * kSize != n;
  // Enough blocks for the vectors at kU per thread, and for the scalar elements (all of them when the
  // two pointers' alignments differ and n_vec is 0); the scalar path is compiled in only when needed.
  auto launch = [&](auto unroll) {
    constexpr int kU = decltype(unroll)::value;
    const int64_t blocks = std::max<int64_t>({ceil_div(n_vec, kU * kThreads), scalar_blocks, 1});
    const auto kernel = scalar ? ScaleKernel<T, kU, true> : ScaleKernel<T, kU, false>;
    kernel<<<static_cast<unsigned>(std::min(blocks, max_blocks)), kThreads, 0, stream>>>(in, out, factor, n,
                                                                                         head, n_vec);
  };
#if defined(FLASHINFER_NB_SCALE_UNROLL) && FLASHINFER_NB_SCALE_UNROLL > 0
  // a tuned variant: one unroll at every size. U8 is one tile per block (no grid-stride loop), so where its grid
  // would pass the cap it falls back to U4.
  constexpr int kTuned = FLASHINFER_NB_SCALE_UNROLL;
  if (kTuned >= 8 && ceil_div(n_vec, kTuned * kThreads) > max_blocks) {
    launch(std::integral_constant<int, 4>{});
  } else {
    launch(std::integral_constant<int, kTuned>{});
  }
#else
  if (ceil_div(n_vec, 8 * kThreads) <= wave / 2) {
    launch(std::integral_constant<int, 8>{});
  } else if (ceil_div(n_vec, 4 * kThreads) <= 2 * wave) {
    launch(std::integral_constant<int, 4>{});
  } else {
    launch(std::integral_constant<int, 1>{});
  }
#endif
  return cudaGetLastError();
}

}  // namespace flashinfer_nb
