// TVM-FFI exports for the norm module.
#include "tvm_ffi_utils.h"

void rmsnorm(TensorView out, TensorView input, TensorView weight, tvm::ffi::AnyView eps,
             double weight_bias, int64_t vpt_hint);
void fused_add_rmsnorm(TensorView input, TensorView residual, TensorView weight,
                       tvm::ffi::AnyView eps, double weight_bias, int64_t vpt_hint);

// rmsnorm(out, input, weight, eps, weight_bias, vpt_hint): weight_bias 1.0 is Gemma's (1 + w);
// vpt_hint 0 picks the launch config (a positive value forces vectors per thread, for tuning).
TVM_FFI_DLL_EXPORT_TYPED_FUNC(rmsnorm, rmsnorm);
// fused_add_rmsnorm(input, residual, weight, eps, weight_bias, vpt_hint): in place on both.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fused_add_rmsnorm, fused_add_rmsnorm);
