// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): the kernels of vector width 4.
#include <flashinfer_nb/norm.cuh>

extern template cudaError_t flashinfer_nb::norm_detail::dispatch_peeled<nv_bfloat16, true>(flashinfer_nb::norm_detail::NormParams, int, int, cudaStream_t);
template cudaError_t flashinfer_nb::norm_detail::dispatch<nv_bfloat16, 4, true>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
