// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): vector widths 1 in one TU.
#include "norm_f32_fused_v1.cu"
