// One tree of the library's norm and gated-activation kernels, for lib_ab.cu: compiled once per tree with its own
// include path and namespace (-Dflashinfer_nb=NAME -DLIB_AB_ENTRY=ENTRY), so two or three versions of the same
// templates live in one binary.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <flashinfer_nb/activation.cuh>
#include <flashinfer_nb/norm.cuh>
#if __has_include(<flashinfer_nb/norm_heads.cuh>)  // 7addb6f's norm.cuh sent short rmsnorm rows there
#include <flashinfer_nb/norm_heads.cuh>
#endif

namespace {
struct Silu {  // the library's SiLU body (flashinfer_nb.op_jit.ACTIVATIONS)
  static __device__ float apply(float x) { return x * flashinfer_nb::sigmoid(x); }
};
struct Gelu {  // and its GELU (erf) body: more math an element, so launch choices can rank differently (session 40)
  static constexpr bool kMathHeavy = true;  // as the library's (op_jit.py; since session 60, ignored by older trees)
  static __device__ float apply(float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); }
};
struct GeluTanh {  // the library's GELU-tanh body (-DLIB_AB_GT_HELPER: the tree's flashinfer_nb::gelu_tanh, session 43)
#ifdef LIB_AB_GT_HELPER
  static __device__ float apply(float x) { return flashinfer_nb::gelu_tanh(x); }
#else
  static __device__ float apply(float x) {
    const float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return x * flashinfer_nb::sigmoid(2.0f * u);
  }
#endif
};
template <typename T>
cudaError_t run(int op, const void* x, void* residual, void* out, const void* w, int rows, int d) {
  if (op == 2)  // silu_and_mul: x is rows x 2d, out rows x d
    return flashinfer_nb::ActAndMulLauncher<T, Silu>(static_cast<const T*>(x), 2 * d, static_cast<T*>(out), d, rows,
                                                      d, false, 0, 0);
  if (op == 3)  // gelu_and_mul, as op 2
    return flashinfer_nb::ActAndMulLauncher<T, Gelu>(static_cast<const T*>(x), 2 * d, static_cast<T*>(out), d, rows,
                                                      d, false, 0, 0);
  if (op == 4)  // gelu_tanh_and_mul, as op 2
    return flashinfer_nb::ActAndMulLauncher<T, GeluTanh>(static_cast<const T*>(x), 2 * d, static_cast<T*>(out), d,
                                                          rows, d, false, 0, 0);
  flashinfer_nb::norm_detail::NormParams p{};
  p.input = x; p.residual = residual; p.out = out; p.weight = w;
  p.in_stride = p.res_stride = p.out_stride = d;
  p.rows = rows; p.d = d; p.eps = 1e-6f; p.weight_bias = 0.f; p.pdl = false;
  return op == 1 ? flashinfer_nb::RMSNormLauncher<T, true>(p, 0, 0) : flashinfer_nb::RMSNormLauncher<T, false>(p, 0, 0);
}
}  // namespace

// op 0 rmsnorm (x, w -> out), 1 fused_add_rmsnorm (x, residual, w; in place), 2 silu_and_mul, 3 gelu_and_mul, 4
// gelu_tanh_and_mul (x -> out); the rule's
// launch (no hint), default stream.
cudaError_t LIB_AB_ENTRY(int op, const void* x, void* residual, void* out, const void* w, int rows, int d, bool fp16) {
  return fp16 ? run<half>(op, x, residual, out, w, rows, d) : run<nv_bfloat16>(op, x, residual, out, w, rows, d);
}
