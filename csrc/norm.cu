// Launchers for the RMSNorm family: check the tensors, then hand raw pointers to
// include/flashinfer_nb/norm.cuh. Rows may be strided; the last dimension must be contiguous.
#include <flashinfer_nb/norm.cuh>

#include "tvm_ffi_utils.h"

namespace {

void check_rows(TensorView t, const char* name, int64_t rows, int64_t d) {
  CHECK_CUDA(t);
  if (t.ndim() != 2) TVM_FFI_THROW(ValueError) << name << " must be 2-D (rows, hidden), got " << t.ndim() << "-D";
  if (t.size(0) != rows || t.size(1) != d)
    TVM_FFI_THROW(ValueError) << name << " must have shape (" << rows << ", " << d << "), got (" << t.size(0)
                              << ", " << t.size(1) << ")";
  if (d > 1 && t.stride(1) != 1)
    TVM_FFI_THROW(ValueError) << name << " must be contiguous in its last dimension (stride " << t.stride(1) << ")";
}

void check_weight(TensorView weight, TensorView input) {
  CHECK_CUDA(weight);
  CHECK_SAME_DEVICE(weight, input);
  CHECK_SAME_DTYPE(weight, input);
  if (weight.ndim() != 1 || weight.size(0) != input.size(1))
    TVM_FFI_THROW(ValueError) << "weight must be 1-D of length " << input.size(1) << " (the hidden size)";
  if (weight.size(0) > 1 && weight.stride(0) != 1) TVM_FFI_THROW(ValueError) << "weight must be contiguous";
}

template <bool kFused>
void run(flashinfer_nb::norm_detail::NormParams p, DLDevice device, DLDataType dtype, int64_t vpt_hint,
         const char* what) {
  tvm::ffi::CUDADeviceGuard guard(device.device_id);
  const cudaStream_t stream = flashinfer_nb::get_stream(device);
  DISPATCH_FLOAT_DTYPE(dtype, c_type, [&] {
    cudaError_t st = flashinfer_nb::RMSNormLauncher<c_type, kFused>(p, static_cast<int>(vpt_hint), stream);
    if (st == cudaErrorInvalidValue)
      TVM_FFI_THROW(ValueError) << what << ": hidden size " << p.d
                                << " is too large (at most 32768 for 16-byte-aligned rows, else 16384)";
    CHECK_CUDA_SUCCESS(st, what);
    return true;
  });
}

// Checks shared by both ops: `input` and `other` (out or residual) are (rows, d) CUDA tensors with
// contiguous rows, same device and dtype; the weight matches. Returns the parameters both ops share.
flashinfer_nb::norm_detail::NormParams checked_params(TensorView input, TensorView other, const char* other_name,
                                                      TensorView weight, double eps, double weight_bias) {
  CHECK_CUDA(input);
  CHECK_DIM(2, input);
  const int64_t rows = input.size(0), d = input.size(1);
  check_rows(input, "input", rows, d);
  check_rows(other, other_name, rows, d);
  CHECK_SAME_DEVICE(input, other);
  CHECK_SAME_DTYPE(input, other);
  check_weight(weight, input);
  flashinfer_nb::norm_detail::NormParams p{};
  p.input = flashinfer_nb::data_ptr<void>(input);
  p.weight = flashinfer_nb::data_ptr<void>(weight);
  p.in_stride = input.stride(0);
  p.rows = rows;
  p.d = static_cast<int>(d);
  p.eps = static_cast<float>(eps);
  p.weight_bias = static_cast<float>(weight_bias);
  return p;
}

}  // namespace

// out = input * rsqrt(mean(input^2, -1) + eps) * (weight + weight_bias); input, out: (rows, d).
void rmsnorm(TensorView out, TensorView input, TensorView weight, double eps, double weight_bias,
             int64_t vpt_hint) {
  auto p = checked_params(input, out, "out", weight, eps, weight_bias);
  p.out = flashinfer_nb::data_ptr<void>(out);
  p.out_stride = out.stride(0);
  run<false>(p, input.device(), input.dtype(), vpt_hint, "rmsnorm");
}

// In place: residual += input; input = rmsnorm(residual) with (weight + weight_bias).
void fused_add_rmsnorm(TensorView input, TensorView residual, TensorView weight, double eps,
                       double weight_bias, int64_t vpt_hint) {
  auto p = checked_params(input, residual, "residual", weight, eps, weight_bias);
  p.out = flashinfer_nb::data_ptr<void>(input);
  p.out_stride = input.stride(0);
  p.residual = flashinfer_nb::data_ptr<void>(residual);
  p.res_stride = residual.stride(0);
  run<true>(p, input.device(), input.dtype(), vpt_hint, "fused_add_rmsnorm");
}
