// TVM-FFI exports for the norm module.
#include "tvm_ffi_utils.h"

void rmsnorm(TensorView out, TensorView input, TensorView weight, tvm::ffi::AnyView eps,
             double weight_bias, int64_t vpt_hint, tvm::ffi::AnyView enable_pdl);
void fused_add_rmsnorm(TensorView input, TensorView residual, TensorView weight,
                       tvm::ffi::AnyView eps, double weight_bias, int64_t vpt_hint, tvm::ffi::AnyView enable_pdl);

// rmsnorm(out, input, weight, eps, weight_bias, vpt_hint, enable_pdl): weight_bias 1.0 is Gemma's (1 + w);
// vpt_hint 0 picks the launch config (a positive value forces vectors per thread, for tuning); enable_pdl
// None / True / False: programmatic dependent launch where supported (sm_90+) / on / off.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(rmsnorm, rmsnorm);
// fused_add_rmsnorm(input, residual, weight, eps, weight_bias, vpt_hint, enable_pdl): in place on both.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fused_add_rmsnorm, fused_add_rmsnorm);
