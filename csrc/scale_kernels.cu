// Device code of the scale module: the kernels and their launcher, instantiated once per dtype. No TVM-FFI
// header here, so nvcc parses only CUDA; the checks and the export (csrc/scale.cpp) compile with c++ in parallel.
#include <flashinfer_nb/scale.cuh>

namespace flashinfer_nb {
template cudaError_t ScaleLauncher<half>(const half*, half*, float, int64_t, cudaStream_t);
template cudaError_t ScaleLauncher<nv_bfloat16>(const nv_bfloat16*, nv_bfloat16*, float, int64_t, cudaStream_t);
template cudaError_t ScaleLauncher<float>(const float*, float*, float, int64_t, cudaStream_t);
}  // namespace flashinfer_nb
