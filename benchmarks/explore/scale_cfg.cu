// Exploration only: scale with a chosen block size (128, 256, 512 threads) and tile unroll (1, 2, 4, 8
// vectors per thread), to time launch configs kernel-only (benchmarks/explore/scale_small.py).
#include <flashinfer_nb/scale.cuh>

#include "tvm_ffi_utils.h"

// Variant: the same tiles, loads carrying an L2 prefetch-size hint of 256 bytes (ld.global.nc.L2::256B).
template <typename T, int kU>
__global__ void __launch_bounds__(256) scale_l2hint(const T* __restrict__ in, T* __restrict__ out, float f, int64_t n,
                                                    int64_t, int64_t n_vec) {
  using namespace flashinfer_nb;
  constexpr int S = Vec16<T>::kSize;
  const int64_t base = static_cast<int64_t>(blockIdx.x) * 256 * kU;
  Vec16<T> v[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int64_t i = base + u * 256 + threadIdx.x;
    if (i < n_vec) v[u] = load_vec16_l2_256(in + i * S);
  }
#pragma unroll
  for (int u = 0; u < kU; ++u) {
    const int64_t i = base + u * 256 + threadIdx.x;
    if (i < n_vec) store_vec16(out + i * S, scale_detail::scale_vec(v[u], f));
  }
}

// (a macro, not inline code: a #define cannot sit inside the dispatch macro's lambda argument)
#define CASE(B, U) \
  if (threads == B && unroll == U) go(ScaleKernel<T, U, false, B>, B);
#define SCALE_CFG_CASES                                      \
  CASE(128, 1) CASE(128, 2) CASE(128, 4) CASE(128, 8)        \
  CASE(256, 1) CASE(256, 2) CASE(256, 4) CASE(256, 8)        \
  CASE(512, 1) CASE(512, 2) CASE(512, 4) CASE(512, 8)        \
  if (threads == 0) go(scale_l2hint<T, 1>, 256);             \
  if (threads == 1) go(scale_l2hint<T, 4>, 256);             \
  if (threads == 2) go(scale_l2hint<T, 8>, 256);

void scale_cfg(TensorView out, TensorView input, double factor, int64_t threads, int64_t unroll) {
  using namespace flashinfer_nb;
  using namespace flashinfer_nb::scale_detail;
  const cudaStream_t stream = get_stream(input.device());
  DISPATCH_FLOAT_DTYPE(input.dtype(), T, [&] {
    const int64_t n = input.numel(), n_vec = n / Vec16<T>::kSize;
    const int64_t blocks = ceil_div(n_vec, unroll * (threads < 128 ? 256 : threads));
    const T* in = data_ptr<const T>(input);
    T* o = data_ptr<T>(out);
    auto go = [&](auto k, int b) { k<<<static_cast<unsigned>(blocks), b, 0, stream>>>(in, o, (float)factor, n, 0, n_vec); };
    SCALE_CFG_CASES
    return true;
  });
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale_cfg, scale_cfg);
