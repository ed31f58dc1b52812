// Small device helpers shared by the kernels: 16-byte vectors and float conversion.
// Framework-agnostic: no torch or TVM-FFI headers here.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace flashinfer_nb {

template <typename T>
__device__ __forceinline__ float to_float(T x);
template <>
__device__ __forceinline__ float to_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ float to_float<half>(half x) { return __half2float(x); }
template <>
__device__ __forceinline__ float to_float<nv_bfloat16>(nv_bfloat16 x) { return __bfloat162float(x); }

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ half from_float<half>(float x) { return __float2half_rn(x); }
template <>
__device__ __forceinline__ nv_bfloat16 from_float<nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}

// N elements of T packed in 16 bytes, so one load or store is a single 128-bit transaction.
template <typename T>
struct alignas(16) Vec16 {
  static constexpr int kSize = 16 / sizeof(T);
  T data[kSize];
};

// Read-only, non-coherent 128-bit load: inputs are never written by the same kernel.
template <typename T>
__device__ __forceinline__ Vec16<T> load_vec16(const T* ptr) {
  uint4 raw = __ldg(reinterpret_cast<const uint4*>(ptr));
  return *reinterpret_cast<Vec16<T>*>(&raw);
}

template <typename T>
__device__ __forceinline__ void store_vec16(T* ptr, const Vec16<T>& v) {
  *reinterpret_cast<uint4*>(ptr) = *reinterpret_cast<const uint4*>(&v);
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Multiprocessor count of the current device, queried once per device.
inline cudaError_t get_sm_count(int* out) {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {0};
  int dev = 0;
  cudaError_t st = cudaGetDevice(&dev);
  if (st != cudaSuccess) return st;
  if (dev < kMaxDevices && cache[dev] > 0) {
    *out = cache[dev];
    return cudaSuccess;
  }
  st = cudaDeviceGetAttribute(out, cudaDevAttrMultiProcessorCount, dev);
  if (st == cudaSuccess && dev < kMaxDevices) cache[dev] = *out;
  return st;
}

}  // namespace flashinfer_nb
