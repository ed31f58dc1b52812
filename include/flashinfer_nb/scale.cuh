// scale: out[i] = in[i] * factor, computed in fp32. The tutorial op, written for bandwidth:
// 16-byte vector loads/stores, a grid of short blocks capped at a multiple of the GPU's resident
// capacity, int64 indexing, and a scalar path for the unaligned head and the tail.
#pragma once
#include "vec.cuh"

namespace flashinfer_nb {

namespace scale_detail {

constexpr int kThreads = 256;
constexpr int kBlocksPerSM = 2048 / kThreads;  // resident blocks per SM at full occupancy
constexpr int kMaxWaves = 256;                 // grid cap, in full-occupancy waves of the GPU

template <typename T>
__device__ __forceinline__ Vec16<T> scale_vec(Vec16<T> v, float factor) {
#pragma unroll
  for (int k = 0; k < Vec16<T>::kSize; ++k) v.data[k] = from_float<T>(to_float(v.data[k]) * factor);
  return v;
}

// [0, head) and [head + n_vec * kSize, n) are scalar; the middle is 16-byte vectors, one per thread
// per grid stride. Short blocks (256 vectors each) let the block scheduler keep every SM fed to the
// end; a capped grid with four loads in flight per thread measured 8-40% slower (NOTES.md).
template <typename T>
__global__ void __launch_bounds__(kThreads)
    ScaleKernel(const T* __restrict__ in, T* __restrict__ out, float factor, int64_t n,
                int64_t head, int64_t n_vec) {
  constexpr int kSize = Vec16<T>::kSize;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * kThreads;
  const int64_t tid = static_cast<int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  const T* vin = in + head;
  T* vout = out + head;
  for (int64_t i = tid; i < n_vec; i += stride)
    store_vec16(vout + i * kSize, scale_vec(load_vec16(vin + i * kSize), factor));

  // Scalar elements: the unaligned head, then the tail after the last full vector.
  const int64_t tail_begin = head + n_vec * kSize;
  const int64_t n_scalar = head + (n - tail_begin);
  for (int64_t j = tid; j < n_scalar; j += stride) {
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
  const int64_t work = n_vec > 0 ? n_vec : n;
  const int64_t blocks =
      std::min<int64_t>(ceil_div(work, kThreads), static_cast<int64_t>(sms) * kBlocksPerSM * kMaxWaves);
  ScaleKernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, out, factor, n, head, n_vec);
  return cudaGetLastError();
}

}  // namespace flashinfer_nb
