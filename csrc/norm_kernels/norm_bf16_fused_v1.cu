// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): the kernels of vector width 1.
#include <flashinfer_nb/norm.cuh>

template cudaError_t flashinfer_nb::norm_detail::dispatch_peeled<nv_bfloat16, true>(flashinfer_nb::norm_detail::NormParams, int, int, cudaStream_t);
template cudaError_t flashinfer_nb::norm_detail::dispatch<nv_bfloat16, 1, true>(const flashinfer_nb::norm_detail::NormParams&, int, cudaStream_t);
