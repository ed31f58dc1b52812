// Written by flashinfer_nb.norm.write_norm_kernel_units (nbs/11_norm.ipynb): vector widths 8, 4 in one TU.
#include "norm_f16_plain_v8.cu"
#include "norm_f16_plain_v4.cu"
