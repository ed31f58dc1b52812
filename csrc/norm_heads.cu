// The norm module's kernels for rows in two levels (include/flashinfer_nb/norm_heads.cuh), every dtype: its own TU,
// beside the per-width units of csrc/norm_kernels/, so those stay as write_norm_kernel_units writes them.
#include <flashinfer_nb/norm_heads.cuh>

template cudaError_t flashinfer_nb::RMSNormHeadsLauncher<half>(flashinfer_nb::norm_detail::NormParams, cudaStream_t);
template cudaError_t flashinfer_nb::RMSNormHeadsLauncher<nv_bfloat16>(flashinfer_nb::norm_detail::NormParams, cudaStream_t);
template cudaError_t flashinfer_nb::RMSNormHeadsLauncher<float>(flashinfer_nb::norm_detail::NormParams, cudaStream_t);
