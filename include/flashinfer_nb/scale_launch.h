// Host-side declaration of the scale launcher (no device code): the launcher TU (csrc/scale.cpp) is
// plain C++ compiled by c++, and links against the instantiations in csrc/scale_kernels.cu.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace flashinfer_nb {

// out[i] = in[i] * factor on `stream`; defined in scale.cuh, instantiated for half, nv_bfloat16, float.
template <typename T>
cudaError_t ScaleLauncher(const T* in, T* out, float factor, int64_t n, cudaStream_t stream);

}  // namespace flashinfer_nb
