// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): two of the per-width TUs in one.
#include "norm_f16_plain_v2.cu"
#include "norm_f32_plain_v4.cu"
