// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): kernels of one (dtype, op).
#include <flashinfer_nb/norm.cuh>

extern template cudaError_t flashinfer_nb::norm_detail::dispatch<float, 1, false>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
template cudaError_t flashinfer_nb::RMSNormLauncher<float, false>(
    flashinfer_nb::norm_detail::NormParams, int, cudaStream_t);
