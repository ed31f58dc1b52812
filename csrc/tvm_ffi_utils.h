// Glue between TVM-FFI tensors and the framework-agnostic kernels in include/.
// Only files in csrc/ include this (and through it, the TVM-FFI headers).
#pragma once
#include <cuda_runtime.h>
// fp16/bf16 types for the dtype dispatch; a lite binding cell gets them only when it names them (the magic checks)
#if !defined(FLASHINFER_NB_FFI_LITE) || defined(FLASHINFER_NB_FFI_HALF)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif
#include <dlpack/dlpack.h>
#ifdef FLASHINFER_NB_FFI_LITE
// A %%cuda_kernel binding cell: the C-ABI subset of the same API (tvm_ffi_lite.h), seconds less of nvcc.
#include "tvm_ffi_lite.h"
#else
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/cuda/device_guard.h>
#include <tvm/ffi/function.h>
#endif

using tvm::ffi::TensorView;

namespace flashinfer_nb {

// The stream the calling framework made current for this device (torch's current stream).
inline cudaStream_t get_stream(DLDevice device) {
  return static_cast<cudaStream_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
}

// Pointer to the first element, honouring DLPack's byte_offset.
template <typename T>
inline T* data_ptr(TensorView t) {
  return reinterpret_cast<T*>(static_cast<char*>(t.data_ptr()) + t.byte_offset());
}

inline const char* dtype_name(DLDataType dt) {
  if (dt.code == kDLFloat && dt.bits == 16) return "float16";
  if (dt.code == kDLBfloat && dt.bits == 16) return "bfloat16";
  if (dt.code == kDLFloat && dt.bits == 32) return "float32";
  if (dt.code == kDLFloat && dt.bits == 64) return "float64";
  if (dt.code == kDLInt) return "int";
  if (dt.code == kDLUInt) return "uint";
  return "unsupported";
}

inline bool same_dtype(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

}  // namespace flashinfer_nb

// ---- input checks: each raises ValueError with a message a user can act on ----
#define CHECK_CUDA(x)                                                                      \
  do {                                                                                     \
    if ((x).device().device_type != kDLCUDA)                                               \
      TVM_FFI_THROW(ValueError) << #x " must be a CUDA tensor (got device type "          \
                                << static_cast<int>((x).device().device_type) << ")";      \
  } while (0)

#define CHECK_CONTIGUOUS(x)                                                                \
  do {                                                                                     \
    if (!(x).IsContiguous()) TVM_FFI_THROW(ValueError) << #x " must be contiguous";       \
  } while (0)

#define CHECK_LAST_DIM_CONTIGUOUS(x)                                                       \
  do {                                                                                     \
    if ((x).ndim() > 0 && (x).stride(-1) != 1)                                             \
      TVM_FFI_THROW(ValueError) << #x " must be contiguous in its last dimension (stride " \
                                << (x).stride(-1) << ")";                                 \
  } while (0)

#define CHECK_INPUT(x) \
  CHECK_CUDA(x);       \
  CHECK_CONTIGUOUS(x)

#define CHECK_DIM(d, x)                                                                    \
  do {                                                                                     \
    if ((x).ndim() != (d))                                                                 \
      TVM_FFI_THROW(ValueError) << #x " must be a " << (d) << "-D tensor (got "           \
                                << (x).ndim() << "-D)";                                   \
  } while (0)

#define CHECK_SAME_DTYPE(a, b)                                                             \
  do {                                                                                     \
    if (!flashinfer_nb::same_dtype((a).dtype(), (b).dtype()))                              \
      TVM_FFI_THROW(ValueError) << #a " and " #b " must have the same dtype (got "        \
                                << flashinfer_nb::dtype_name((a).dtype()) << " and "      \
                                << flashinfer_nb::dtype_name((b).dtype()) << ")";         \
  } while (0)

#define CHECK_SAME_SHAPE(a, b)                                                             \
  do {                                                                                     \
    bool same_ = (a).ndim() == (b).ndim();                                                 \
    for (int i_ = 0; same_ && i_ < (a).ndim(); ++i_) same_ = (a).size(i_) == (b).size(i_); \
    if (!same_) TVM_FFI_THROW(ValueError) << #a " and " #b " must have the same shape";   \
  } while (0)

#define CHECK_SAME_DEVICE(a, b)                                                            \
  do {                                                                                     \
    if ((a).device().device_type != (b).device().device_type ||                            \
        (a).device().device_id != (b).device().device_id)                                  \
      TVM_FFI_THROW(ValueError) << #a " and " #b " must be on the same device";           \
  } while (0)

#define CHECK_CUDA_SUCCESS(expr, what)                                                     \
  do {                                                                                     \
    cudaError_t st_ = (expr);                                                              \
    if (st_ != cudaSuccess)                                                                \
      TVM_FFI_THROW(RuntimeError) << what << " failed: " << cudaGetErrorString(st_);      \
  } while (0)

// ---- dtype dispatch: binds c_type and runs the lambda body for fp16, bf16 (or fp32) ----
#define FLASHINFER_NB_IS_DTYPE(dt, code_, bits_) ((dt).lanes == 1 && (dt).code == (code_) && (dt).bits == (bits_))

#define FLASHINFER_NB_DISPATCH_HALF_CASES(dt, c_type, ...) \
  if (FLASHINFER_NB_IS_DTYPE(dt, kDLFloat, 16)) {           \
    using c_type = half;                                    \
    return __VA_ARGS__();                                   \
  }                                                         \
  if (FLASHINFER_NB_IS_DTYPE(dt, kDLBfloat, 16)) {          \
    using c_type = nv_bfloat16;                             \
    return __VA_ARGS__();                                   \
  }

#define DISPATCH_FLOAT_DTYPE(dlpack_dtype, c_type, ...)                                \
  [&]() -> bool {                                                                      \
    DLDataType dt_ = (dlpack_dtype);                                                   \
    FLASHINFER_NB_DISPATCH_HALF_CASES(dt_, c_type, __VA_ARGS__)                        \
    if (FLASHINFER_NB_IS_DTYPE(dt_, kDLFloat, 32)) {                                   \
      using c_type = float;                                                            \
      return __VA_ARGS__();                                                            \
    }                                                                                  \
    TVM_FFI_THROW(TypeError) << "unsupported dtype " << flashinfer_nb::dtype_name(dt_) \
                             << "; expected float16, bfloat16 or float32";            \
    return false;                                                                      \
  }()

#define DISPATCH_HALF_DTYPE(dlpack_dtype, c_type, ...)                                 \
  [&]() -> bool {                                                                      \
    DLDataType dt_ = (dlpack_dtype);                                                   \
    FLASHINFER_NB_DISPATCH_HALF_CASES(dt_, c_type, __VA_ARGS__)                        \
    TVM_FFI_THROW(TypeError) << "unsupported dtype " << flashinfer_nb::dtype_name(dt_) \
                             << "; expected float16 or bfloat16";                     \
    return false;                                                                      \
  }()

// ---- cheap call-boundary checks (issue 19) ----
// The Python layer calls the binding first and runs its own (slower, clearer) checks only when the binding
// refuses, so the binding must refuse at least everything the Python checks refuse. These helpers are
// deliberately strict: a refusal of a valid call only costs the Python checks and one more call.
namespace flashinfer_nb {

// `t` as (rows, cols) rows: last dimension contiguous, leading dimensions collapsible into one without a copy
// (each leading stride is the next one's stride times its size; size-1 dims, whose strides address nothing, are
// skipped, as torch's view skips them). With `groups`, two levels are taken too: rows in groups of `heads` rows
// `stride` apart, the groups `gstride` apart (the heads of a query slice of a fused QKV buffer: (batch, heads, d)
// with strides (3 * heads * d, d, 1)); heads = 0 means one level. More than two levels: false.
struct RowsView {
  int64_t rows, cols, stride;
  int64_t heads = 0, gstride = 0;
};
inline bool as_rows(TensorView t, RowsView* r, bool groups = false) {
  const int nd = t.ndim();
  if (nd < 1) return false;
  const int64_t* sh = t.shape().data();
  const int64_t* st = t.strides().data();
  if (st[nd - 1] != 1) return false;  // also for a size-1 last dimension: the Python check is strict there too
  int64_t rows = 1;
  for (int i = 0; i < nd - 1; ++i) rows *= sh[i];
  r->rows = rows;
  r->cols = sh[nd - 1];
  r->stride = r->cols;  // one row or none: any stride will do, and this one keeps every vector width
  r->heads = r->gstride = 0;
  if (rows == 0 || r->cols == 0) return true;
  int levels = 0;
  int64_t size = 1, stride = 0;  // the level being merged: `size` rows `stride` apart
  for (int i = nd - 2; i >= 0; --i) {
    if (sh[i] == 1) continue;
    if (levels > 0 && st[i] == stride * size) {  // the same level goes on
      size *= sh[i];
      continue;
    }
    if (++levels > (groups ? 2 : 1)) return false;
    if (levels == 2) r->heads = size;  // the inner level's rows form the groups
    size = sh[i];
    stride = st[i];
    if (levels == 1) r->stride = stride;
  }
  if (levels == 2) r->gstride = stride;
  return true;
}

inline bool same_shape(TensorView a, TensorView b) {
  if (a.ndim() != b.ndim()) return false;
  const int64_t *x = a.shape().data(), *y = b.shape().data();
  for (int i = 0; i < a.ndim(); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

inline bool same_device(TensorView a, TensorView b) {
  return a.device().device_type == b.device().device_type && a.device().device_id == b.device().device_id;
}

inline bool is_float_dtype(DLDataType dt) {
  return dt.lanes == 1 && ((dt.code == kDLFloat && (dt.bits == 16 || dt.bits == 32)) || (dt.code == kDLBfloat && dt.bits == 16));
}

// Byte span [lo, hi) of the elements of a rows view (rows > 0, cols > 0), one level or two.
inline void row_span(TensorView t, const RowsView& r, uintptr_t* lo, uintptr_t* hi) {
  const int64_t es = t.dtype().bits / 8;
  *lo = reinterpret_cast<uintptr_t>(static_cast<char*>(t.data_ptr()) + t.byte_offset());
  const int64_t last = r.heads > 0 ? (r.rows / r.heads - 1) * r.gstride + (r.heads - 1) * r.stride : (r.rows - 1) * r.stride;
  *hi = *lo + static_cast<uintptr_t>((last + r.cols) * es);
}

// 'n'one, 's'ame (the identical view) or 'p'artial overlap of two rows views of equal shape and dtype.
inline char overlap(TensorView a, const RowsView& ra, TensorView b, const RowsView& rb) {
  if (ra.rows == 0 || ra.cols == 0) return 'n';
  uintptr_t a0, a1, b0, b1;
  row_span(a, ra, &a0, &a1);
  row_span(b, rb, &b0, &b1);
  if (a1 <= b0 || b1 <= a0) return 'n';
  return a0 == b0 && ra.stride == rb.stride && ra.heads == rb.heads && ra.gstride == rb.gstride ? 's' : 'p';
}

// Compute capability (major * 10 + minor) of a device, cached per device: one attribute query per device per
// process; 0 when it cannot be read.
inline int device_cc(int device_id) {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {0};
  if (device_id < 0 || device_id >= kMaxDevices) return 0;
  if (cache[device_id] == 0) {
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device_id) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device_id) != cudaSuccess)
      return 0;
    cache[device_id] = major * 10 + minor;
  }
  return cache[device_id];
}

// Compute capabilities the ops list in Python (`_CCS` in nbs/11_norm.ipynb, nbs/12_activation.ipynb).
inline bool supported_cc(int device_id) {
  const int cc = device_cc(device_id);
  for (int c : {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121})
    if (c == cc) return true;
  return false;
}

#ifndef FLASHINFER_NB_FFI_LITE
// The `enable_pdl` argument of the ops, as FlashInfer takes it: None -> programmatic dependent launch on
// where the device supports it (compute capability 9.0 and up), True/False -> on/off. True on an older
// device is refused (the launch attribute and the griddepcontrol instructions exist from sm_90 on), so is
// anything but None or a bool. The Python ops check the same (`resolve_pdl` in nbs/11_norm.ipynb).
inline bool resolve_pdl(tvm::ffi::AnyView enable_pdl, int device_id) {
  const int32_t ti = enable_pdl.type_index();
  if (ti == tvm::ffi::TypeIndex::kTVMFFINone) return device_cc(device_id) >= 90;
  if (ti != tvm::ffi::TypeIndex::kTVMFFIBool)
    TVM_FFI_THROW(TypeError) << "enable_pdl must be None, True or False, got " << enable_pdl.GetTypeKey();
  const bool on = enable_pdl.cast<bool>();
  const int cc = device_cc(device_id);
  if (on && cc < 90)
    TVM_FFI_THROW(ValueError) << "enable_pdl=True needs compute capability 9.0 or newer (programmatic dependent "
                              << "launch), but the device has " << cc / 10 << "." << cc % 10
                              << "; pass enable_pdl=None (on where supported) or False";
  return on;
}
#endif

}  // namespace flashinfer_nb
