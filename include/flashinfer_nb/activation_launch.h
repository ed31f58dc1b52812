// Host-side declaration of the gated-activation launcher (no device code): the rendered launcher TU
// (csrc/act_and_mul.jinja, compiled by c++) sees this; activation.cuh defines it, and the kernel TU
// (csrc/act_and_mul_kernels.jinja) instantiates it for each dtype with the activation's functor.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace flashinfer_nb {

// out (rows x d, row stride out_stride) = Act::apply(in[:, :d]) * in[:, d:] (rows x 2d, row stride in_stride);
// pdl: launch with programmatic dependent launch (sm_90+ only). hint: a tuned launch choice (0: the built-in
// rule; else 10 * (block threads / 32) + 1 for one vector per thread, + 2 for 16 bytes of each operand per
// thread, + 3 for the shifted kernel, one 16-byte output vector a thread at any alignment, for d over 8 such vectors
// and blocks of up to that many threads; cudaErrorInvalidValue for anything else).
template <typename T, typename Act>
cudaError_t ActAndMulLauncher(const T* in, int64_t in_stride, T* out, int64_t out_stride, int64_t rows, int d,
                              bool pdl, int hint, cudaStream_t stream);

}  // namespace flashinfer_nb
