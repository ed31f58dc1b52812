// FlashInfer 0.7.2's rmsnorm and fused_add_rmsnorm (its norm.cuh from the wheel, unchanged), for cold_code.cu: built
// with -I <wheel>/flashinfer/data/include. PDL off, default stream, eps 1e-6, as bench_vs_flashinfer.py calls them.
// Session 65: and its gated kernels (activation.cuh's act_and_mul_kernel, launched as its JIT template
// flashinfer/jit/activation.py launches it: one block a row of min(d / vec, 256) threads, the widest vector that divides
// d, the PDL attribute present and off; its silu / gelu / gelu_tanh bodies), so lib_ab can time FlashInfer's gated
// kernel as a tree (ops 2-4) in the same binary as ours. Build it as FlashInfer builds it, with -use_fast_math.
#include <flashinfer/activation.cuh>
#include <flashinfer/norm.cuh>

namespace fi_act {
__device__ __forceinline__ float silu(const float& val) { return val / (1.0f + __expf(-val)); }
__device__ __forceinline__ float gelu(const float& val) {
  return val * 0.5f * (1.0f + ::erf(val * 0.70710678118654752f));
}
__device__ __forceinline__ float gelu_tanh(const float& val) {
  const float cdf = 0.5f * (1.0f + flashinfer::math::tanh((0.7978845608028654f * (val + 0.044715f * val * val * val))));
  return val * cdf;
}

template <typename T, float (*Act)(const float&)>
cudaError_t launch(T* out, const T* in, int rows, int d) {
  cudaLaunchConfig_t config = {};
  config.gridDim = rows;
  config.dynamicSmemBytes = 0;
  config.stream = 0;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = false;
  config.numAttrs = 1;
  config.attrs = attrs;
  auto go = [&](auto vec_tag) {
    constexpr uint32_t vec = decltype(vec_tag)::value;
    config.blockDim = std::min(static_cast<uint32_t>(d) / vec, 256U);
    return cudaLaunchKernelEx(&config, flashinfer::activation::act_and_mul_kernel<T, Act, vec>, out,
                              const_cast<T*>(in), d);
  };
  constexpr uint32_t max_vec = 16 / sizeof(T);
  if (d % max_vec == 0) return go(std::integral_constant<uint32_t, max_vec>{});
  if (d % 4 == 0) return go(std::integral_constant<uint32_t, 4>{});
  if (d % 2 == 0) return go(std::integral_constant<uint32_t, 2>{});
  return go(std::integral_constant<uint32_t, 1>{});
}
}  // namespace fi_act


template <typename T>
static cudaError_t run(int op, void* x, void* residual, void* out, void* w, int rows, int d) {
  if (op == 2) return fi_act::launch<T, fi_act::silu>(static_cast<T*>(out), static_cast<T*>(x), rows, d);
  if (op == 3) return fi_act::launch<T, fi_act::gelu>(static_cast<T*>(out), static_cast<T*>(x), rows, d);
  if (op == 4) return fi_act::launch<T, fi_act::gelu_tanh>(static_cast<T*>(out), static_cast<T*>(x), rows, d);
  if (op == 1)
    return flashinfer::norm::FusedAddRMSNorm<T>(static_cast<T*>(x), static_cast<T*>(residual), static_cast<T*>(w), rows,
                                                d, d, d, 1e-6f, false, 0);
  return flashinfer::norm::RMSNorm<T>(static_cast<T*>(x), static_cast<T*>(w), static_cast<T*>(out), rows, d, d, d, 1e-6f,
                                      false, 0);
}

// op 0 rmsnorm (x, w -> out), 1 fused_add_rmsnorm (x, residual, w; in place), 2 silu_and_mul, 3 gelu_and_mul, 4
// gelu_tanh_and_mul (x rows x 2d -> out): explore.cuh's LibEntry
cudaError_t fi_norm(int op, const void* x, void* residual, void* out, const void* w, int rows, int d, bool fp16) {
  void* xm = const_cast<void*>(x);
  void* wm = const_cast<void*>(w);
  return fp16 ? run<half>(op, xm, residual, out, wm, rows, d) : run<nv_bfloat16>(op, xm, residual, out, wm, rows, d);
}
