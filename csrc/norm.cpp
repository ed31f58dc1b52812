// Launchers for the RMSNorm family (host C++, compiled by c++): check the tensors, then hand raw pointers to
// the kernels of include/flashinfer_nb/norm.cuh. Rows may be strided; the last dimension must be contiguous; leading
// dimensions are flattened into rows here (when they can be without a copy).
//
// These checks are the call boundary's first line (issue 19): the Python op calls this binding straight
// away and runs its own checks only when the binding raises, to replace the error with its clearer one. So
// every input the Python checks refuse, this file refuses too (nothing is launched then), and the checks are
// O(ndim) integer compares on the DLPack headers.
#include <flashinfer_nb/norm_launch.h>  // declarations only: the kernels build in their own nvcc TUs

#include <flashinfer_nb/tuned_table.h>

#include "tvm_ffi_utils.h"

namespace {

using flashinfer_nb::RowsView;

// groups: rmsnorm also takes rows in two levels (the heads of a strided query slice; norm_heads.cuh)
RowsView check_rows(TensorView t, const char* name, bool groups = false) {
  CHECK_CUDA(t);
  if (!flashinfer_nb::is_float_dtype(t.dtype()))
    TVM_FFI_THROW(ValueError) << name << " has dtype " << flashinfer_nb::dtype_name(t.dtype())
                              << "; expected float16, bfloat16 or float32";
  if (t.ndim() < 1) TVM_FFI_THROW(ValueError) << name << " must have at least one dimension (..., hidden)";
  RowsView r;
  if (!flashinfer_nb::as_rows(t, &r, groups))
    TVM_FFI_THROW(ValueError) << name << " must be contiguous in its last dimension, with leading dimensions "
                              << (groups ? "that flatten into rows, or into groups of evenly spaced rows, without a copy"
                                         : "that flatten into rows without a copy");
  if (r.cols > 32768) TVM_FFI_THROW(ValueError) << name << " has hidden size " << r.cols << "; at most 32768 is supported";
  return r;
}

void check_same(TensorView t, const char* name, TensorView input) {
  if (!flashinfer_nb::same_shape(t, input)) TVM_FFI_THROW(ValueError) << name << " must have the shape of input";
  CHECK_SAME_DTYPE(t, input);
  CHECK_SAME_DEVICE(t, input);
}

void check_weight(TensorView weight, TensorView input, int64_t d) {
  CHECK_CUDA(weight);
  CHECK_SAME_DEVICE(weight, input);
  CHECK_SAME_DTYPE(weight, input);
  if (weight.ndim() != 1 || weight.size(0) != d)
    TVM_FFI_THROW(ValueError) << "weight must be 1-D of length " << d << " (the hidden size)";
  if (weight.size(0) > 1 && weight.stride(0) != 1) TVM_FFI_THROW(ValueError) << "weight must be contiguous";
}

double check_eps(tvm::ffi::AnyView eps) {
  // a bool converts to a float silently in TVM-FFI; the Python op refuses it (TypeError), so refuse it here
  if (eps.type_index() == tvm::ffi::TypeIndex::kTVMFFIBool) TVM_FFI_THROW(TypeError) << "eps must be a real number, got bool";
  const double v = eps.cast<double>();
  if (!(v >= 0)) TVM_FFI_THROW(ValueError) << "eps must be >= 0, got " << v;
  return v;
}

void check_device(TensorView input) {
  if (!flashinfer_nb::supported_cc(input.device().device_id))
    TVM_FFI_THROW(ValueError) << "the device's compute capability is not supported by the norm ops";
}

// Tuned launch configurations (issue 18, include/flashinfer_nb/tuned_table.h): variant 1 = fused. A call with
// vpt_hint 0 (the op's default) uses the entry for its shape, if any; an entry the kernel refuses
// (cudaErrorInvalidValue) falls back to the built-in rule.
flashinfer_nb::TunedTable g_tuned;

template <bool kFused>
void run(flashinfer_nb::norm_detail::NormParams p, DLDevice device, DLDataType dtype, int64_t vpt_hint,
         const char* what) {
  if (p.rows == 0 || p.d == 0) return;
  tvm::ffi::CUDADeviceGuard guard(device.device_id);
  const cudaStream_t stream = flashinfer_nb::get_stream(device);
  const int tuned = vpt_hint == 0 ? g_tuned.lookup(device.device_id, flashinfer_nb::TunedTable::dtype_code(dtype), kFused,
                                                   p.d, p.rows) : 0;
  DISPATCH_FLOAT_DTYPE(dtype, c_type, [&] {
    cudaError_t st = cudaErrorInvalidValue;
    if (tuned != 0) st = flashinfer_nb::RMSNormLauncher<c_type, kFused>(p, tuned, stream);
    if (st == cudaErrorInvalidValue) st = flashinfer_nb::RMSNormLauncher<c_type, kFused>(p, static_cast<int>(vpt_hint), stream);
    if (st == cudaErrorInvalidValue && vpt_hint != 0)  // a forced choice (tuning): name it, the size is fine
      TVM_FFI_THROW(ValueError) << what << ": vpt_hint " << vpt_hint << " has no kernel for hidden size " << p.d
                                << " at this row's vector width (at most 64 elements a thread and 1024 threads a row)";
    if (st == cudaErrorInvalidValue)
      TVM_FFI_THROW(ValueError) << what << ": hidden size " << p.d
                                << " is too large (at most 32768 for 16-byte-aligned rows, 32760 for other 16-bit rows, else 16384)";
    CHECK_CUDA_SUCCESS(st, what);
    return true;
  });
}

flashinfer_nb::norm_detail::NormParams params(TensorView input, const RowsView& r, TensorView weight, double eps,
                                              double weight_bias) {
  flashinfer_nb::norm_detail::NormParams p{};
  p.input = flashinfer_nb::data_ptr<void>(input);
  p.weight = flashinfer_nb::data_ptr<void>(weight);
  p.in_stride = r.stride;
  p.rows = r.rows;
  p.d = static_cast<int>(r.cols);
  p.eps = static_cast<float>(eps);
  p.weight_bias = static_cast<float>(weight_bias);
  return p;
}

// rmsnorm over rows in two levels: `heads` rows a group, each view's row and group strides (a one-level view: its
// rows split the same way). The tuned table and vpt_hint are for the kernels of norm.cuh.
void run_heads(flashinfer_nb::norm_detail::NormParams p, const RowsView& ri, const RowsView& ro, DLDevice device,
               DLDataType dtype, int64_t vpt_hint) {
  if (vpt_hint != 0)
    TVM_FFI_THROW(ValueError) << "rmsnorm: vpt_hint is for rows of one stride; these rows are in groups of two strides";
  if (ri.heads > 0 && ro.heads > 0 && ri.heads != ro.heads)
    TVM_FFI_THROW(ValueError) << "input and out group their rows differently (groups of " << ri.heads << " and "
                              << ro.heads << " rows); make one of them contiguous";
  const int64_t heads = ri.heads > 0 ? ri.heads : ro.heads;
  p.heads = heads;
  p.in_gstride = ri.heads > 0 ? ri.gstride : ri.stride * heads;
  p.out_gstride = ro.heads > 0 ? ro.gstride : ro.stride * heads;
  tvm::ffi::CUDADeviceGuard guard(device.device_id);
  const cudaStream_t stream = flashinfer_nb::get_stream(device);
  DISPATCH_FLOAT_DTYPE(dtype, c_type, [&] {
    const cudaError_t st = flashinfer_nb::RMSNormHeadsLauncher<c_type>(p, stream);
    if (st == cudaErrorInvalidValue)
      TVM_FFI_THROW(ValueError) << "rmsnorm: " << p.rows << " rows in two levels; at most 2^31 - 1 are supported in two "
                                << "levels (make the input contiguous)";
    CHECK_CUDA_SUCCESS(st, "rmsnorm");
    return true;
  });
}

}  // namespace

// out = input * rsqrt(mean(input^2, -1) + eps) * (weight + weight_bias); input, out: (..., d), rows of one stride or
// two levels (norm_heads.cuh).
// enable_pdl: None (programmatic dependent launch where the device has it, sm_90+), True or False.
void rmsnorm(TensorView out, TensorView input, TensorView weight, tvm::ffi::AnyView eps, double weight_bias,
             int64_t vpt_hint, tvm::ffi::AnyView enable_pdl) {
  const RowsView ri = check_rows(input, "input", true);
  const RowsView ro = check_rows(out, "out", true);
  check_same(out, "out", input);
  check_weight(weight, input, ri.cols);
  const double e = check_eps(eps);
  check_device(input);
  // rows are read by one block and written by another when the views are shifted; `out` *being* input is fine
  if (flashinfer_nb::overlap(out, ro, input, ri) == 'p')
    TVM_FFI_THROW(ValueError) << "out partially overlaps input; pass input itself (in place) or a separate tensor";
  auto p = params(input, ri, weight, e, weight_bias);
  p.pdl = flashinfer_nb::resolve_pdl(enable_pdl, input.device().device_id);
  p.out = flashinfer_nb::data_ptr<void>(out);
  p.out_stride = ro.stride;
  if (ri.heads > 0 || ro.heads > 0) return run_heads(p, ri, ro, input.device(), input.dtype(), vpt_hint);
  run<false>(p, input.device(), input.dtype(), vpt_hint, "rmsnorm");
}

// In place: residual += input; input = rmsnorm(residual) with (weight + weight_bias).
void fused_add_rmsnorm(TensorView input, TensorView residual, TensorView weight, tvm::ffi::AnyView eps,
                       double weight_bias, int64_t vpt_hint, tvm::ffi::AnyView enable_pdl) {
  const RowsView ri = check_rows(input, "input");
  const RowsView rr = check_rows(residual, "residual");
  check_same(residual, "residual", input);
  check_weight(weight, input, ri.cols);
  const double e = check_eps(eps);
  check_device(input);
  if (flashinfer_nb::overlap(input, ri, residual, rr) != 'n')
    TVM_FFI_THROW(ValueError) << "input and residual must not overlap: both are written";
  auto p = params(input, ri, weight, e, weight_bias);
  p.pdl = flashinfer_nb::resolve_pdl(enable_pdl, input.device().device_id);
  p.out = flashinfer_nb::data_ptr<void>(input);
  p.out_stride = ri.stride;
  p.residual = flashinfer_nb::data_ptr<void>(residual);
  p.res_stride = rr.stride;
  run<true>(p, input.device(), input.dtype(), vpt_hint, "fused_add_rmsnorm");
}

// The tuned-configuration table: add one entry, or clear a device's entries.
void norm_set_tuned(int64_t device, int64_t dtype, bool fused, int64_t d, int64_t rows_log2, int64_t hint) {
  if (const char* err = g_tuned.set(device, dtype, fused, d, rows_log2, hint)) TVM_FFI_THROW(ValueError) << err;
}

void norm_clear_tuned(int64_t device) {
  if (const char* err = g_tuned.clear(device)) TVM_FFI_THROW(ValueError) << err;
}

// The hint a call with vpt_hint 0 would use for this shape (0: the built-in rule), for tests and `explain`.
int64_t norm_tuned_hint(int64_t device, int64_t dtype, bool fused, int64_t d, int64_t rows) {
  return g_tuned.lookup(static_cast<int>(device), static_cast<int>(dtype), fused, d, rows);
}
