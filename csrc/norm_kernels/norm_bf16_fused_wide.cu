// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): kernels of one (dtype, op).
#include <flashinfer_nb/norm.cuh>

extern template cudaError_t flashinfer_nb::norm_detail::dispatch<nv_bfloat16, 2, true>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
extern template cudaError_t flashinfer_nb::norm_detail::dispatch<nv_bfloat16, 1, true>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
template cudaError_t flashinfer_nb::RMSNormLauncher<nv_bfloat16, true>(
    flashinfer_nb::norm_detail::NormParams, int, cudaStream_t);
