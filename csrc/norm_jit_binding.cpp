// TVM-FFI exports for the norm module.
#include "tvm_ffi_utils.h"

void rmsnorm(TensorView out, TensorView input, TensorView weight, tvm::ffi::AnyView eps,
             double weight_bias, int64_t vpt_hint, tvm::ffi::AnyView enable_pdl);
void fused_add_rmsnorm(TensorView input, TensorView residual, TensorView weight,
                       tvm::ffi::AnyView eps, double weight_bias, int64_t vpt_hint, tvm::ffi::AnyView enable_pdl);
void norm_set_tuned(int64_t device, int64_t dtype, bool fused, int64_t d, int64_t rows_log2, int64_t hint);
void norm_clear_tuned(int64_t device);
int64_t norm_tuned_hint(int64_t device, int64_t dtype, bool fused, int64_t d, int64_t rows);

// rmsnorm(out, input, weight, eps, weight_bias, vpt_hint, enable_pdl): weight_bias 1.0 is Gemma's (1 + w);
// vpt_hint 0 picks the launch config (a positive value forces vectors per thread, for tuning); enable_pdl
// None / True / False: programmatic dependent launch where supported (sm_90+) / on / off.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(rmsnorm, rmsnorm);
// fused_add_rmsnorm(input, residual, weight, eps, weight_bias, vpt_hint, enable_pdl): in place on both.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fused_add_rmsnorm, fused_add_rmsnorm);
// Tuned configurations from the tuning database (flashinfer_nb.norm.apply_tuned): dtype 0 float16, 1 bfloat16,
// 2 float32; rows_log2 = ceil(log2(rows)); a call with vpt_hint 0 at that shape uses `hint`.
TVM_FFI_DLL_EXPORT_TYPED_FUNC(norm_set_tuned, norm_set_tuned);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(norm_clear_tuned, norm_clear_tuned);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(norm_tuned_hint, norm_tuned_hint);
