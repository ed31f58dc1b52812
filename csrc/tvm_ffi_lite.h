// The subset of TVM-FFI's C++ API that a binding cell uses, written on TVM-FFI's C ABI only (c_api.h).
//
// `%%cuda_kernel` compiles a cell that includes "tvm_ffi_utils.h" with FLASHINFER_NB_FFI_LITE defined first, so
// that header takes these definitions instead of TVM-FFI's C++ headers. nvcc passes a TU through three front
// ends (cudafe++, cicc, the host compiler); TVM-FFI's headers cost about 1.2 s in each, this file a few tens of
// milliseconds (nbs/02_jit_core.ipynb, "How long a build takes"). A cell that uses more of TVM-FFI than this
// (Optional, Array, Any, Function...) fails to compile against it, and the magic compiles it again with the
// full headers. The exported symbol and its calling convention are TVM-FFI's own (`__tvm_ffi_<name>`), so
// `tvm_ffi.load_module` cannot tell the difference.
#pragma once
#include <cuda_runtime_api.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <type_traits>
#include <utility>

namespace flashinfer_nb {
namespace lite {

// A message from pieces: strings, characters, integers and floats, in a fixed buffer (longer messages are cut at
// 1023 characters). Neither <sstream> nor <string>: through nvcc's three front ends <sstream> alone costs ~0.8 s and
// <string> ~0.5 s of CPU (a one-kernel TU: 0.84 s, with <string> 1.45 s). A std::string (or anything with c_str())
// still streams in when the cell includes <string> itself.
class Message {
 public:
  Message& operator<<(const char* v) { return append(v ? v : "(null)"); }
  Message& operator<<(char v) {
    const char s[2] = {v, 0};
    return append(s);
  }
  Message& operator<<(bool v) { return append(v ? "true" : "false"); }
  template <typename S, typename = decltype(std::declval<const S&>().c_str())>
  Message& operator<<(const S& v) { return append(v.c_str()); }
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>, typename = void>
  Message& operator<<(T v) {
    char buf[32];
    if constexpr (std::is_floating_point_v<T>) snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
    else if constexpr (std::is_signed_v<T>) snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    else snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    return append(buf);
  }
  const char* c_str() const { return s_; }

 private:
  Message& append(const char* v) {
    while (*v && n_ + 1 < sizeof s_) s_[n_++] = *v++;
    s_[n_] = 0;
    return *this;
  }
  char s_[1024] = {0};
  size_t n_ = 0;
};

// A raised error on its way out of the exported function (turned into TVM-FFI's error there).
struct Error {
  const char* kind;  // a literal: "ValueError", "TypeError"...
  Message message;
};

inline Error make_error(const char* kind, const char* message) {
  Error e{kind, {}};
  e.message << message;
  return e;
}

// `TVM_FFI_THROW(ValueError) << "x must be " << 2;` raises ValueError("x must be 2") at the end of the statement.
class ErrorBuilder {
 public:
  explicit ErrorBuilder(const char* kind) : kind_(kind) {}
  template <typename T>
  ErrorBuilder& operator<<(const T& v) {
    msg_ << v;
    return *this;
  }
  [[noreturn]] ~ErrorBuilder() noexcept(false) { throw Error{kind_, msg_}; }

 private:
  const char* kind_;
  Message msg_;
};

// A sequence of int64 (a shape or strides), as TVM-FFI's ShapeView reads.
struct Int64View {
  const int64_t* ptr;
  int64_t n;
  const int64_t* data() const { return ptr; }
  int64_t size() const { return n; }
  int64_t operator[](int64_t i) const { return ptr[i]; }
  const int64_t* begin() const { return ptr; }
  const int64_t* end() const { return ptr + n; }
};

// A non-owning view of a DLTensor with TVM-FFI's TensorView accessors.
class TensorView {
 public:
  static constexpr int kMaxDims = 16;
  explicit TensorView(DLTensor* t) : t_(t) {
    if (t_->ndim > kMaxDims) throw make_error("ValueError", "tensors of more than 16 dimensions are not supported");
    int64_t s = 1;  // compact strides where DLPack gives none
    for (int i = t_->ndim - 1; i >= 0; --i) {
      strides_[i] = t_->strides ? t_->strides[i] : s;
      s *= t_->shape[i];
    }
  }
  int ndim() const { return t_->ndim; }
  int64_t size(int64_t i) const { return t_->shape[i < 0 ? i + t_->ndim : i]; }
  int64_t stride(int64_t i) const { return strides_[i < 0 ? i + t_->ndim : i]; }
  Int64View shape() const { return {t_->shape, t_->ndim}; }
  Int64View strides() const { return {strides_, t_->ndim}; }
  int64_t numel() const {
    int64_t n = 1;
    for (int i = 0; i < t_->ndim; ++i) n *= t_->shape[i];
    return n;
  }
  DLDataType dtype() const { return t_->dtype; }
  DLDevice device() const { return t_->device; }
  void* data_ptr() const { return t_->data; }
  uint64_t byte_offset() const { return t_->byte_offset; }
  bool IsContiguous() const {
    int64_t expect = 1;
    for (int i = t_->ndim - 1; i >= 0; --i) {
      if (t_->shape[i] != 1 && strides_[i] != expect) return false;
      expect *= t_->shape[i];
    }
    return true;
  }
  const DLTensor* GetDLTensorPtr() const { return t_; }

 private:
  DLTensor* t_;
  int64_t strides_[kMaxDims];
};

// Makes `device` current for the scope and restores the caller's device after.
class CUDADeviceGuard {
 public:
  explicit CUDADeviceGuard(int device) {
    if (cudaGetDevice(&prev_) == cudaSuccess && prev_ != device) cudaSetDevice(device);
    else prev_ = -1;
  }
  ~CUDADeviceGuard() {
    if (prev_ >= 0) cudaSetDevice(prev_);
  }

 private:
  int prev_ = -1;
};

// ---- arguments and results across the C ABI ----
inline Error arg_error(const char* fn, int i, const char* want, int32_t got) {
  Error e{"TypeError", {}};
  e.message << fn << ": argument " << i << " must be " << want << " (got FFI type index " << got << ")";
  return e;
}

template <typename T, typename = void>
struct Arg;

template <>
struct Arg<TensorView> {
  static TensorView get(const char* fn, int i, const TVMFFIAny& a) {
    if (a.type_index == kTVMFFIDLTensorPtr) return TensorView(static_cast<DLTensor*>(a.v_ptr));
    if (a.type_index == kTVMFFITensor) return TensorView(TVMFFITensorGetDLTensorPtr(a.v_obj));
    throw arg_error(fn, i, "a tensor", a.type_index);
  }
};

template <>
struct Arg<bool> {
  static bool get(const char* fn, int i, const TVMFFIAny& a) {
    if (a.type_index == kTVMFFIBool || a.type_index == kTVMFFIInt) return a.v_int64 != 0;
    throw arg_error(fn, i, "a bool", a.type_index);
  }
};

template <typename T>
struct Arg<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static T get(const char* fn, int i, const TVMFFIAny& a) {
    if (a.type_index != kTVMFFIInt && a.type_index != kTVMFFIBool)
      throw arg_error(fn, i, "an int", a.type_index);
    const int64_t v = a.v_int64;
    if (static_cast<int64_t>(static_cast<T>(v)) != v || (std::is_unsigned_v<T> && v < 0)) {
      Message m;
      m << fn << ": argument " << i << " = " << v << " does not fit its C type";
      throw Error{"ValueError", m};
    }
    return static_cast<T>(v);
  }
};

template <typename T>
struct Arg<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static T get(const char* fn, int i, const TVMFFIAny& a) {
    if (a.type_index == kTVMFFIFloat) return static_cast<T>(a.v_float64);
    if (a.type_index == kTVMFFIInt || a.type_index == kTVMFFIBool) return static_cast<T>(a.v_int64);
    throw arg_error(fn, i, "a float", a.type_index);
  }
};

template <typename T>
void set_result(TVMFFIAny* r, T v) {
  static_assert(std::is_arithmetic_v<T>, "the lite binding returns void, bool, an integer or a float");
  r->zero_padding = 0;
  if constexpr (std::is_same_v<T, bool>) {
    r->type_index = kTVMFFIBool;
    r->v_int64 = v;
  } else if constexpr (std::is_integral_v<T>) {
    r->type_index = kTVMFFIInt;
    r->v_int64 = static_cast<int64_t>(v);
  } else {
    r->type_index = kTVMFFIFloat;
    r->v_float64 = static_cast<double>(v);
  }
}

template <typename R, typename... A, size_t... I>
void call(const char* fn, R (*f)(A...), const TVMFFIAny* args, TVMFFIAny* result, std::index_sequence<I...>) {
  if constexpr (std::is_void_v<R>) {
    f(Arg<std::decay_t<A>>::get(fn, static_cast<int>(I), args[I])...);
  } else {
    set_result(result, f(Arg<std::decay_t<A>>::get(fn, static_cast<int>(I), args[I])...));
  }
}

// The body of an exported function: unpack, call, and turn a raised error into TVM-FFI's (return -1).
template <typename R, typename... A>
int invoke(const char* fn, R (*f)(A...), const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  try {
    if (num_args != static_cast<int32_t>(sizeof...(A))) {
      Message m;
      m << fn << " takes " << sizeof...(A) << " argument(s), got " << num_args;
      throw Error{"TypeError", m};
    }
    call(fn, f, args, result, std::index_sequence_for<A...>{});
    return 0;
  } catch (const Error& e) {
    TVMFFIErrorSetRaisedFromCStr(e.kind, e.message.c_str());
  } catch (const std::exception& e) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError", e.what());
  }
  return -1;
}

}  // namespace lite
}  // namespace flashinfer_nb

// The names binding cells write, as TVM-FFI spells them.
namespace tvm {
namespace ffi {
using TensorView = ::flashinfer_nb::lite::TensorView;
using CUDADeviceGuard = ::flashinfer_nb::lite::CUDADeviceGuard;
}  // namespace ffi
}  // namespace tvm

#define TVM_FFI_THROW(ErrorKind) ::flashinfer_nb::lite::ErrorBuilder(#ErrorKind)

#define TVM_FFI_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                                                  \
  extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(void*, const TVMFFIAny* args, int32_t num_args, \
                                                          TVMFFIAny* result) {                            \
    return ::flashinfer_nb::lite::invoke(#ExportName, Function, args, num_args, result);                   \
  }
