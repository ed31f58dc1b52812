// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): the kernels of vector width 4.
#ifndef FLASHINFER_NB_NO_BF16
#define FLASHINFER_NB_NO_BF16  // no bfloat16 kernel here (vec.cuh)
#endif
#include <flashinfer_nb/norm.cuh>

extern template cudaError_t flashinfer_nb::norm_detail::dispatch_peeled<half, true>(flashinfer_nb::norm_detail::NormParams, int, int, cudaStream_t);
template cudaError_t flashinfer_nb::norm_detail::dispatch<half, 4, true>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
