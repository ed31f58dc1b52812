// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): vector widths 2, 1 in one TU.
#include "norm_f16_fused_v2.cu"
#include "norm_f16_fused_v1.cu"
