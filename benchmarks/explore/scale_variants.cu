// Scale kernel variants timed side by side (CUDA events, L2 flushed by a 2x-L2 memset, median of 50).
// Build and run on a GPU machine:  nvcc -O3 -arch=sm_90a -I include benchmarks/explore/scale_variants.cu -o /tmp/sv && /tmp/sv
// Kept as the record of how the shipped kernel was chosen (see include/flashinfer_nb/NOTES.md).
#include <flashinfer_nb/scale.cuh>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace flashinfer_nb;
constexpr int kThreads = 256;

using scale_detail::scale_vec;

// A: grid-stride; a thread's kU loads are one grid stride apart (first shipped version)
template <typename T, int kU>
__global__ void __launch_bounds__(kThreads) strided(const T* __restrict__ in, T* __restrict__ out, float f, int64_t nv) {
  constexpr int S = Vec16<T>::kSize;
  const int64_t stride = (int64_t)gridDim.x * kThreads;
  int64_t i = (int64_t)blockIdx.x * kThreads + threadIdx.x;
  for (; i + (kU - 1) * stride < nv; i += kU * stride) {
    Vec16<T> v[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) v[u] = load_vec16(in + (i + u * stride) * S);
#pragma unroll
    for (int u = 0; u < kU; ++u) store_vec16(out + (i + u * stride) * S, scale_vec(v[u], f));
  }
  for (; i < nv; i += stride) store_vec16(out + i * S, scale_vec(load_vec16(in + i * S), f));
}

// B: tiled — a block's kU loads cover one contiguous tile of kThreads*kU vectors and blocks stride
// over tiles. Timed through the library's own aligned kernel, so the variants and the library share
// one loop: scale_detail::ScaleKernel<T, kU, /*kScalar=*/false>.
template <typename T, int kU>
constexpr auto tiled = scale_detail::ScaleKernel<T, kU, false>;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

template <typename F>
float bench(F launch, char* flush, size_t flush_bytes) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int i = 0; i < 5; ++i) launch();
  std::vector<float> ts;
  for (int i = 0; i < 50; ++i) {
    CK(cudaMemsetAsync(flush, i & 0xff, flush_bytes));
    cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2] * 1e3f;  // us
}

template <typename T>
void run(const char* name, int lg, int sms, char* flush, size_t fb) {
  const int64_t n = 1ll << lg, nv = n / Vec16<T>::kSize;
  T *x, *y; CK(cudaMalloc(&x, n * sizeof(T))); CK(cudaMalloc(&y, n * sizeof(T)));
  CK(cudaMemset(x, 0x3c, n * sizeof(T)));
  const double bytes = 2.0 * n * sizeof(T);
  auto rep = [&](const char* v, float us) { printf("%-9s 2^%d %-28s %9.1f us %6.2f TB/s\n", name, lg, v, us, bytes / us / 1e6); };
  rep("memcpy d2d", bench([&] { cudaMemcpyAsync(y, x, n * sizeof(T), cudaMemcpyDeviceToDevice); }, flush, fb));
  const int64_t cap = (int64_t)sms * 8;
  rep("strided U4 cap8", bench([&] { strided<T, 4><<<(unsigned)std::min<int64_t>(ceil_div(nv, kThreads), cap), kThreads>>>(x, y, 2.f, nv); }, flush, fb));
  rep("tiled U4 cap8", bench([&] { tiled<T, 4><<<(unsigned)std::min<int64_t>(ceil_div(nv, kThreads * 4), cap), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("tiled U4 cap32", bench([&] { tiled<T, 4><<<(unsigned)std::min<int64_t>(ceil_div(nv, kThreads * 4), cap * 4), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("tiled U4 uncapped", bench([&] { tiled<T, 4><<<(unsigned)ceil_div(nv, kThreads * 4), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("tiled U2 uncapped", bench([&] { tiled<T, 2><<<(unsigned)ceil_div(nv, kThreads * 2), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("tiled U8 cap8", bench([&] { tiled<T, 8><<<(unsigned)std::min<int64_t>(ceil_div(nv, kThreads * 8), cap), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("tiled U1 uncapped", bench([&] { tiled<T, 1><<<(unsigned)ceil_div(nv, kThreads), kThreads>>>(x, y, 2.f, n, 0, nv); }, flush, fb));
  rep("library ScaleLauncher", bench([&] { ScaleLauncher<T>(x, y, 2.f, n, 0); }, flush, fb));
  cudaFree(x); cudaFree(y);
}

int main(int argc, char** argv) {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("%s, %d SMs, L2 %d MB\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
  size_t fb = 2ull * p.l2CacheSize; char* flush; CK(cudaMalloc(&flush, fb));
  if (argc > 1) {  // small sizes only: `scale_variants small`
    for (int lg : {20, 21, 22}) run<float>("float32", lg, p.multiProcessorCount, flush, fb);
    return 0;
  }
  for (int lg : {20, 24, 26, 28}) run<half>("float16", lg, p.multiProcessorCount, flush, fb);
  for (int lg : {24, 28}) run<float>("float32", lg, p.multiProcessorCount, flush, fb);
  return 0;
}
