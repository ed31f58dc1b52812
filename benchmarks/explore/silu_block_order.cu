// Issue 19, session 25: why silu_and_mul trailed FlashInfer by 1-2 % at 8192 rows. Twelve variants of one
// bandwidth-bound kernel (grid order, block size, streaming loads/stores), timed like bench_vs_flashinfer:
// CUDA events around one launch, 256 MB L2 flush before each, median of 60, 3 rounds; outputs compared bit for bit.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/v benchmarks/explore/silu_block_order.cu && /tmp/v
// Results (H200): benchmarks/results/NVIDIA_H200_silu_block_order.txt. The finding (rows on grid.x, chunks on
// grid.y interleave rows; a row-major flat index is 1-2 % faster) went into include/flashinfer_nb/activation.cuh.
#include <cuda_bf16.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <functional>
struct __align__(16) V8 { __nv_bfloat162 h[4]; };
__device__ __forceinline__ float silu(float x) { return x / (1.0f + __expf(-x)); }
__device__ __forceinline__ V8 op(V8 a, V8 b) {
  V8 o;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float2 fa = __bfloat1622float2(a.h[j]), fb = __bfloat1622float2(b.h[j]);
    o.h[j] = __floats2bfloat162_rn(silu(fa.x) * fb.x, silu(fa.y) * fb.y);
  }
  return o;
}
template <int MODE>  // 0 plain, 1 streaming store, 2 streaming load+store, 3 no-allocate L1 load (ld.global.nc)
__device__ __forceinline__ V8 ld(const V8* p) {
  if (MODE == 2) { int4 v = __ldcs(reinterpret_cast<const int4*>(p)); return *reinterpret_cast<V8*>(&v); }
  if (MODE == 3) { int4 v = __ldg(reinterpret_cast<const int4*>(p)); return *reinterpret_cast<V8*>(&v); }
  return *p;
}
template <int MODE>
__device__ __forceinline__ void st(V8* p, V8 v) {
  if (MODE == 1 || MODE == 2) __stcs(reinterpret_cast<int4*>(p), *reinterpret_cast<int4*>(&v));
  else *p = v;
}
// 2D grid: (row, block of the row); one vector per thread
template <int MODE, int T>
__global__ void __launch_bounds__(T) grid2d(const V8* in, V8* out, int nvec) {
  const V8* a = in + (size_t)blockIdx.x * 2 * nvec; const V8* b = a + nvec; V8* o = out + (size_t)blockIdx.x * nvec;
  int i = blockIdx.y * T + threadIdx.x;
  if (i < nvec) st<MODE>(o + i, op(ld<MODE>(a + i), ld<MODE>(b + i)));
}
// one block per row, stride loop
template <int MODE, int T>
__global__ void __launch_bounds__(T) rowblock(const V8* in, V8* out, int nvec) {
  const V8* a = in + (size_t)blockIdx.x * 2 * nvec; const V8* b = a + nvec; V8* o = out + (size_t)blockIdx.x * nvec;
  for (int i = threadIdx.x; i < nvec; i += blockDim.x) st<MODE>(o + i, op(ld<MODE>(a + i), ld<MODE>(b + i)));
}
// 1D grid over all rows' vectors (row-agnostic flat index), grid-stride-free
template <int MODE, int T>
__global__ void __launch_bounds__(T) flat(const V8* in, V8* out, int nvec, long total) {
  long g = (long)blockIdx.x * T + threadIdx.x;
  if (g >= total) return;
  long r = g / nvec; int i = (int)(g - r * nvec);
  const V8* a = in + r * 2 * nvec;
  st<MODE>(out + g, op(ld<MODE>(a + i), ld<MODE>(a + nvec + i)));
}
int main() {
  int shapes[][2] = {{8192, 14336}, {8192, 8960}, {8192, 18944}, {2048, 14336}, {8192, 4096}};
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (auto& s : shapes) {
    int R = s[0], D = s[1], nvec = D / 8;
    V8 *in, *out, *ref; cudaMalloc(&in, (size_t)R * 2 * D * 2); cudaMalloc(&out, (size_t)R * D * 2); cudaMalloc(&ref, (size_t)R * D * 2);
    std::vector<unsigned short> h((size_t)R * 2 * D);
    for (size_t k = 0; k < h.size(); ++k) h[k] = 0x3f80 ^ (unsigned short)((k * 2654435761u) >> 20 & 0x3ff);
    cudaMemcpy(in, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
    std::vector<std::pair<const char*, void (*)(V8*, V8*, int, int)>> vs;
#define G2(M, T) {"grid2d<" #M "," #T ">", [](V8* i, V8* o, int R, int n) { grid2d<M, T><<<dim3(R, (n + T - 1) / T), T>>>(i, o, n); }}
#define RB(M, T) {"rowblock<" #M "," #T ">", [](V8* i, V8* o, int R, int n) { rowblock<M, T><<<R, std::min(n, T)>>>(i, o, n); }}
#define FL(M, T) {"flat<" #M "," #T ">", [](V8* i, V8* o, int R, int n) { long t = (long)R * n; flat<M, T><<<(t + T - 1) / T, T>>>(i, o, n, t); }}
    vs = {G2(0, 256), G2(1, 256), G2(2, 256), G2(3, 256), G2(0, 512), G2(0, 128), RB(0, 1024), RB(1, 1024), RB(0, 512), FL(0, 256), FL(1, 256), FL(0, 512)};
    vs[0].second(in, ref, R, nvec);
    std::vector<std::vector<float>> med(vs.size());
    for (int round = 0; round < 3; ++round)
      for (size_t v = 0; v < vs.size(); ++v) {
        std::vector<float> t;
        for (int it = 0; it < 60; ++it) {
          cudaMemsetAsync(flush, it, 256 << 20);
          cudaEventRecord(e0); vs[v].second(in, out, R, nvec); cudaEventRecord(e1); cudaEventSynchronize(e1);
          float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms * 1000);
        }
        std::nth_element(t.begin(), t.begin() + 30, t.end()); med[v].push_back(t[30]);
        if (round == 0) {
          std::vector<unsigned short> a((size_t)R * D), b((size_t)R * D);
          cudaMemcpy(a.data(), out, a.size() * 2, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), ref, b.size() * 2, cudaMemcpyDeviceToHost);
          if (a != b) printf("MISMATCH %s\n", vs[v].first);
        }
      }
    double gb = (double)R * D * 2 * 3 / 1e9;
    printf("%dx%d bf16: %.1f MB, floor at 4.26 TB/s %.1f us\n", R, D, gb * 1e3, gb / 4.26e3 * 1e6);
    for (size_t v = 0; v < vs.size(); ++v) {
      std::sort(med[v].begin(), med[v].end());
      printf("  %-22s %8.2f us  (rounds %.2f %.2f %.2f)\n", vs[v].first, med[v][1], med[v][0], med[v][1], med[v][2]);
    }
    cudaFree(in); cudaFree(out); cudaFree(ref);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
