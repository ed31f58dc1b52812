// Gated activations: out[r, j] = act(in[r, j]) * in[r, d + j] for an input row [a | b] of 2d.
//
// The activation is a functor with `static __device__ float apply(float)`, supplied by the caller
// (the JIT renders one per activation from csrc/act_and_mul.jinja), so one kernel serves SiLU, GELU,
// GELU-tanh or a user's own. Bytes: read 2d, write d per row, once each; compute in fp32, round once.
// Framework-agnostic: raw pointers, no torch or TVM-FFI headers.
#pragma once
#include "vec.cuh"

namespace flashinfer_nb {

namespace act_detail {

constexpr int kThreads = 256;

// Grid: x = rows, y = chunks of kThreads vectors along the row; every thread moves one vector of a,
// one of b and one of out. Short blocks keep the block scheduler feeding every SM to the end (the
// lesson from scale, NOTES.md); rows on grid.x allow up to 2^31 - 1 of them.
template <typename T, typename Act, int kVec>
__global__ void __launch_bounds__(kThreads)
    ActAndMulKernel(const T* __restrict__ in, int64_t in_stride, T* __restrict__ out, int64_t out_stride,
                    int d) {
  using V = VecN<T, kVec>;
  const int i = blockIdx.y * blockDim.x + threadIdx.x;  // vector index within the row
  if (i >= d / kVec) return;
  const T* row = in + static_cast<int64_t>(blockIdx.x) * in_stride;
  const V a = reinterpret_cast<const V*>(row)[i];
  const V b = reinterpret_cast<const V*>(row + d)[i];
  V o;
  convert_pairs(o, [&](int j) { return Act::apply(to_float(a.data[j])) * to_float(b.data[j]); });
  reinterpret_cast<V*>(out + static_cast<int64_t>(blockIdx.x) * out_stride)[i] = o;
}

}  // namespace act_detail

// out (rows x d, row stride out_stride) = Act(in[:, :d]) * in[:, d:] (rows x 2d, row stride in_stride).
// 16-byte vectors when d, both strides and both pointers allow, else single elements.
template <typename T, typename Act>
cudaError_t ActAndMulLauncher(const T* in, int64_t in_stride, T* out, int64_t out_stride, int64_t rows, int d,
                              cudaStream_t stream) {
  using namespace act_detail;
  if (rows <= 0 || d <= 0) return cudaSuccess;
  if (rows > 0x7fffffff) return cudaErrorInvalidValue;
  constexpr int kMaxVec = 16 / sizeof(T);
  const bool vec = d % kMaxVec == 0 && in_stride % kMaxVec == 0 && out_stride % kMaxVec == 0 &&
                   is_aligned(in, 16) && is_aligned(out, 16);
  const int nvec = vec ? d / kMaxVec : d;
  // a short row gets a block no wider than it (rounded to a warp) rather than 256 mostly idle threads
  const int threads = static_cast<int>(std::min<int64_t>(kThreads, ceil_div(nvec, 32) * 32));
  const dim3 grid(static_cast<unsigned>(rows), static_cast<unsigned>(ceil_div(nvec, threads)));
  if (grid.y > 65535) return cudaErrorInvalidValue;
  if (vec)
    ActAndMulKernel<T, Act, kMaxVec><<<grid, threads, 0, stream>>>(in, in_stride, out, out_stride, d);
  else
    ActAndMulKernel<T, Act, 1><<<grid, threads, 0, stream>>>(in, in_stride, out, out_stride, d);
  return cudaGetLastError();
}

}  // namespace flashinfer_nb
