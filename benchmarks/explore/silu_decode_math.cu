// Issue 19, session 28 (first run in session 29: NVIDIA_H100_silu_decode_math_s29.txt): is silu_and_mul at 128-256 rows x 4096 bound by
// its arithmetic after the loads land? A copy kernel moving the same bytes with the same grid is ~0.5 us faster than
// ours and FlashInfer's there (benchmarks/results/NVIDIA_H100_issue19_silu_copy_s28.txt), and each thread's 8 elements
// cost 8 MUFU.EX2 + 8 MUFU.RCP plus the IEEE divide's fix-ups. The library's decode mapping (a row's chunks on grid.x,
// the row on grid.y, 256 threads, one 16-byte vector of a, b and out a thread) with five bodies:
//   ieee    x / (1 + __expf(-x))                      (the library's SiLU: 2 MUFU an element + divide fix-ups)
//   fastdiv __fdividef(x, 1 + __expf(-x))             (2 MUFU, no fix-ups; FlashInfer's -use_fast_math does this)
//   tanh    x * (0.5 + 0.5 * tanh.approx(x / 2))      (1 MUFU; tanh.approx.f32's error is ~2^-11 relative)
//   copy    a ^ b                                     (no arithmetic: the floor of the mapping)
//   sigmoid x * flashinfer_nb::sigmoid(x)             (the library's SiLU since session 29: the fast divide as a
//                                                      reciprocal and a multiply)
// CUDA events around one launch, 256 MB L2 flush before each, median and 10 %-trimmed mean of 200, 3 interleaved
// rounds; each body's output against the host's double-precision SiLU rounded to the dtype: the largest error in
// units of the dtype's last place and how many elements are off by more than one.
//   nvcc -O3 -std=c++17 -arch=sm_90a -I include -o /tmp/m benchmarks/explore/silu_decode_math.cu && /tmp/m
#include <cmath>

#include <flashinfer_nb/activation.cuh>

#include "explore.cuh"

__device__ __forceinline__ float tanh_approx(float x) { float y; asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
template <int kBody> __device__ __forceinline__ float silu(float x) {
  if constexpr (kBody == 0) return x / (1.0f + __expf(-x));
  if constexpr (kBody == 1) return __fdividef(x, 1.0f + __expf(-x));
  if constexpr (kBody == 4) return x * flashinfer_nb::sigmoid(x);
  return x * fmaf(0.5f, tanh_approx(0.5f * x), 0.5f);
}
template <typename T, int kBody>
__device__ __forceinline__ V8<T> op(V8<T> a, V8<T> b) {
  V8<T> o;
  if constexpr (kBody == 3) {
    const uint4 u = *reinterpret_cast<uint4*>(&a), v = *reinterpret_cast<uint4*>(&b);
    const uint4 w = make_uint4(u.x ^ v.x, u.y ^ v.y, u.z ^ v.z, u.w ^ v.w);
    return *reinterpret_cast<const V8<T>*>(&w);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float2 fa = Pair<T>::f2(a.h[j]), fb = Pair<T>::f2(b.h[j]);
      o.h[j] = Pair<T>::mk(silu<kBody>(fa.x) * fb.x, silu<kBody>(fa.y) * fb.y);
    }
  }
  return o;
}
template <typename T, int kBody>
__global__ void __launch_bounds__(256) act(const V8<T>* __restrict__ in, V8<T>* __restrict__ out, int nvec) {
  const int r = blockIdx.y, i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nvec) return;
  const V8<T>* a = in + (size_t)r * 2 * nvec;
  out[(size_t)r * nvec + i] = op<T, kBody>(a[i], a[nvec + i]);
}

template <typename T>
void run(const char* tname, int R, int D, char* flush, cudaEvent_t e0, cudaEvent_t e1) {
  const int nvec = D / 8;
  V8<T>*in, *out;
  cudaMalloc(&in, (size_t)R * 2 * D * 2); cudaMalloc(&out, (size_t)R * D * 2);
  std::vector<unsigned short> h((size_t)R * 2 * D);
  unsigned s = 12345;
  for (auto& v : h) v = random16<T>(s, 16.0f);  // values spread over about [-8, 8] (a gate's range)
  cudaMemcpy(in, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  const dim3 grid((nvec + 255) / 256, R);
  const Variants vs = {
      {"ieee", [=] { act<T, 0><<<grid, 256>>>(in, out, nvec); }},
      {"fastdiv", [=] { act<T, 1><<<grid, 256>>>(in, out, nvec); }},
      {"tanh", [=] { act<T, 2><<<grid, 256>>>(in, out, nvec); }},
      {"sigmoid", [=] { act<T, 4><<<grid, 256>>>(in, out, nvec); }},
      {"copy", [=] { act<T, 3><<<grid, 256>>>(in, out, nvec); }}};
  printf("%dx%d %s\n", R, D, tname);
  time_variants(vs, flush, e0, e1, 200, 8, [&](size_t v) -> std::string {
    if (vs[v].first == "copy") return "";
    // against the host's double-precision SiLU, rounded once to the dtype
    std::vector<unsigned short> o((size_t)R * D);
    cudaMemcpy(o.data(), out, o.size() * 2, cudaMemcpyDeviceToHost);
    double worst = 0; long off = 0;
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < D; ++j) {
        const double x = Pair<T>::host(h[(size_t)r * 2 * D + j]), y = Pair<T>::host(h[(size_t)r * 2 * D + D + j]);
        const double want = x / (1 + std::exp(-x)) * y, got = Pair<T>::host(o[(size_t)r * D + j]);
        const double ulp = std::ldexp(1.0, std::max(std::ilogb(std::max(std::fabs(want), 1e-30)), Pair<T>::minexp()) - Pair<T>::mant());
        const double e = std::fabs(got - want) / ulp;
        worst = std::max(worst, e); off += e > 1.0;
      }
    char buf[96]; snprintf(buf, sizeof buf, "  max err %.2f ulp, %ld of %ld elements > 1 ulp", worst, off, (long)R * D);
    return buf;
  });
  cudaFree(in); cudaFree(out);
}

int main() {
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int D : {4096, 14336})
    for (int R : {8, 32, 128, 256, 2048}) {
      run<__half>("fp16", R, D, flush, e0, e1);
      run<__nv_bfloat16>("bf16", R, D, flush, e0, e1);
    }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
