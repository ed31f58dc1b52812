// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): two of the per-width TUs in one.
#include "norm_bf16_fused_v4.cu"
#include "norm_bf16_plain_v4.cu"
