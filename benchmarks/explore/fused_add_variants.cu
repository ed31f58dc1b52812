// Issue 19, session 26: fused_add_rmsnorm at prefill shapes sits at ~93 % of the copy ceiling (8192 x 4096 bf16:
// 68.3 us CUPTI, 70.4 us events; FlashInfer 70.7), rmsnorm at 97 %. The goal is 95 %. Variants of the fused kernel
// (vectors per thread, load/store cache hints, when the residual is stored, a persistent grid that prefetches its
// next row into L2), timed like bench_vs_flashinfer: CUDA events around one launch, 256 MB L2 flush before each,
// median of 60, 3 rounds; every variant's residual compared bit for bit with the first's, its output within 2 bf16 ulps. The same-run ceilings: a
// 16-byte copy kernel moving the same bytes (2 streams in, 2 out) and cudaMemcpyAsync device-to-device.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/fa benchmarks/explore/fused_add_variants.cu && /tmp/fa
#include <cuda_bf16.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#include <functional>
#include <string>
#include <cstdlib>

struct __align__(16) V8 { __nv_bfloat162 h[4]; };

template <int LD>  // 0 plain, 1 L2::256B prefetch hint, 2 + L1::no_allocate, 3 evict-first (__ldcs)
__device__ __forceinline__ V8 ld(const V8* p) {
  uint4 r;
  if (LD == 1) asm volatile("ld.global.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  else if (LD == 2) asm volatile("ld.global.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
  else if (LD == 3) r = __ldcs(reinterpret_cast<const uint4*>(p));
  else r = *reinterpret_cast<const uint4*>(p);
  return *reinterpret_cast<V8*>(&r);
}
template <int ST>  // 0 plain, 1 streaming (.cs), 2 L1::no_allocate
__device__ __forceinline__ void st(V8* p, const V8& v) {
  const uint4 r = *reinterpret_cast<const uint4*>(&v);
  if (ST == 1) __stcs(reinterpret_cast<uint4*>(p), r);
  else if (ST == 2) asm volatile("st.global.L1::no_allocate.v4.u32 [%0], {%1,%2,%3,%4};" :: "l"(p), "r"(r.x), "r"(r.y), "r"(r.z), "r"(r.w) : "memory");
  else *reinterpret_cast<uint4*>(p) = r;
}

// One row per block (PERSIST = 0) or a grid-stride loop over rows that prefetches row + gridDim.x into L2 first.
// DEFER: 0 store the residual before the reduction (the library's kernel), 1 with the output after it.
template <int VPT, int LD, int ST, int DEFER, int PERSIST>
__global__ void __launch_bounds__(512) fused(V8* x, V8* res, const V8* w, int nvec, int rows, float eps, float d) {
  __shared__ float partial[32];
  for (int row = blockIdx.x; row < rows; row += PERSIST ? gridDim.x : rows) {
    V8* xr = x + (size_t)row * nvec; V8* rr = res + (size_t)row * nvec;
    if (PERSIST && row + gridDim.x < rows) {
      const V8* nx = x + (size_t)(row + gridDim.x) * nvec; const V8* nr = res + (size_t)(row + gridDim.x) * nvec;
#pragma unroll
      for (int k = 0; k < VPT; ++k) { int i = threadIdx.x + k * blockDim.x;
        if (i < nvec) { asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(nx + i)); asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(nr + i)); } }
    }
    V8 xv[VPT], rv[VPT];
#pragma unroll
    for (int k = 0; k < VPT; ++k) { int i = threadIdx.x + k * blockDim.x; if (i < nvec) { xv[k] = ld<LD>(xr + i); rv[k] = ld<LD>(rr + i); } }
    float ss = 0.f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) { int i = threadIdx.x + k * blockDim.x; if (i < nvec) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        float2 a = __bfloat1622float2(xv[k].h[j]), b = __bfloat1622float2(rv[k].h[j]);
        xv[k].h[j] = __floats2bfloat162_rn(a.x + b.x, a.y + b.y);
        float2 s = __bfloat1622float2(xv[k].h[j]); ss += s.x * s.x + s.y * s.y;
      }
      if (!DEFER) st<ST>(rr + i, xv[k]); } }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = ss;
    __syncthreads();
    ss = threadIdx.x % 32 < blockDim.x / 32 ? partial[threadIdx.x % 32] : 0.f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    const float rstd = rsqrtf(ss / d + eps);
#pragma unroll
    for (int k = 0; k < VPT; ++k) { int i = threadIdx.x + k * blockDim.x; if (i < nvec) {
      if (DEFER) st<ST>(rr + i, xv[k]);
      V8 wk = w[i], o;
#pragma unroll
      for (int j = 0; j < 4; ++j) { float2 a = __bfloat1622float2(xv[k].h[j]), b = __bfloat1622float2(wk.h[j]);
        o.h[j] = __floats2bfloat162_rn(a.x * rstd * b.x, a.y * rstd * b.y); }
      st<ST>(xr + i, o); } }
    if (PERSIST) __syncthreads();   // partial[] is reused by the next row
  }
}

__global__ void copy2(const uint4* a, const uint4* b, uint4* c, uint4* d, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { uint4 u = a[i], v = b[i]; c[i] = u; d[i] = v; }
}

int main(int argc, char** argv) {
  std::vector<std::pair<int, int>> shapes = {{8192, 4096}, {16384, 8192}, {8192, 8192}, {2048, 4096}, {8192, 1536},
                                             {8192, 2048}, {8192, 5120}, {65536, 4096}};
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (auto& sh : shapes) {
    const int R = sh.first, D = sh.second;
    const int nvec = D / 8; const size_t n = (size_t)R * D;
    V8 *x, *r, *w, *x0, *r0, *xref, *rref, *c1, *c2;
    for (V8** p : {&x, &r, &x0, &r0, &xref, &rref, &c1, &c2}) cudaMalloc(p, n * 2);
    cudaMalloc(&w, D * 2);
    std::vector<unsigned short> h(n);
    for (size_t k = 0; k < n; ++k) h[k] = 0x3f00 ^ (unsigned short)((k * 2654435761u) >> 20 & 0x3ff);
    cudaMemcpy(x0, h.data(), n * 2, cudaMemcpyHostToDevice);
    for (size_t k = 0; k < n; ++k) h[k] = 0x3e80 ^ (unsigned short)((k * 40503u + 7) >> 9 & 0x3ff);
    cudaMemcpy(r0, h.data(), n * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(w, h.data(), D * 2, cudaMemcpyHostToDevice);
    using F = std::function<void()>;
    std::vector<std::pair<std::string, F>> vs;
    auto blk = [&](int vpt) { return ((nvec + vpt - 1) / vpt + 31) / 32 * 32; };
#define V(VPT, LD, ST, DF, PS) if (blk(VPT) <= 512) vs.push_back({"vpt" #VPT " ld" #LD " st" #ST " defer" #DF " persist" #PS, [&, R, nvec] { \
      int b = blk(VPT); int g = R; if (PS) { int per; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, fused<VPT, LD, ST, DF, PS>, b, 0); g = std::min(R, per * sms); } \
      fused<VPT, LD, ST, DF, PS><<<g, b>>>(x, r, w, nvec, R, 1e-6f, (float)D); }});
    V(4, 0, 0, 0, 0) V(2, 0, 0, 0, 0) V(8, 0, 0, 0, 0) V(4, 1, 0, 0, 0) V(4, 2, 0, 0, 0) V(4, 3, 0, 0, 0)
    V(4, 0, 1, 0, 0) V(4, 0, 2, 0, 0) V(4, 3, 1, 0, 0) V(4, 0, 0, 1, 0) V(4, 1, 0, 1, 0) V(4, 0, 0, 0, 1) V(4, 1, 0, 0, 1)
    V(2, 1, 0, 0, 0) V(8, 1, 0, 0, 0)
    const long n16 = (long)(n * 2 / 16);
    vs.push_back({"copy kernel (same bytes)", [&] { copy2<<<(n16 + 255) / 256, 256>>>((uint4*)x, (uint4*)r, (uint4*)c1, (uint4*)c2, n16); }});
    vs.push_back({"cudaMemcpy D2D x2", [&] { cudaMemcpyAsync(c1, x, n * 2, cudaMemcpyDeviceToDevice); cudaMemcpyAsync(c2, r, n * 2, cudaMemcpyDeviceToDevice); }});
    // reference outputs from the first variant on pristine inputs
    cudaMemcpy(x, x0, n * 2, cudaMemcpyDeviceToDevice); cudaMemcpy(r, r0, n * 2, cudaMemcpyDeviceToDevice);
    vs[0].second(); cudaMemcpy(xref, x, n * 2, cudaMemcpyDeviceToDevice); cudaMemcpy(rref, r, n * 2, cudaMemcpyDeviceToDevice);
    std::vector<std::vector<float>> med(vs.size());
    std::vector<unsigned short> a(n), b(n);
    for (int round = 0; round < 3; ++round)
      for (size_t v = 0; v < vs.size(); ++v) {
        std::vector<float> t;
        for (int it = 0; it < 60; ++it) {
          if (it % 20 == 0) { cudaMemcpyAsync(x, x0, n * 2, cudaMemcpyDeviceToDevice); cudaMemcpyAsync(r, r0, n * 2, cudaMemcpyDeviceToDevice); }
          cudaMemsetAsync(flush, it, 256 << 20);
          cudaEventRecord(e0); vs[v].second(); cudaEventRecord(e1); cudaEventSynchronize(e1);
          float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms * 1000);
        }
        std::nth_element(t.begin(), t.begin() + 30, t.end()); med[v].push_back(t[30]);
        if (round == 0 && v + 2 < vs.size()) {
          cudaMemcpy(x, x0, n * 2, cudaMemcpyDeviceToDevice); cudaMemcpy(r, r0, n * 2, cudaMemcpyDeviceToDevice);
          vs[v].second(); cudaDeviceSynchronize();
          // the residual (x + r) is exact whatever the variant; the output differs where the sum of squares is
          // added up in another order (another vector width): at most a few bf16 ulps
          cudaMemcpy(a.data(), r, n * 2, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), rref, n * 2, cudaMemcpyDeviceToHost);
          const bool res_ok = a == b;
          cudaMemcpy(a.data(), x, n * 2, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), xref, n * 2, cudaMemcpyDeviceToHost);
          int ulps = 0;
          for (size_t k = 0; k < n; ++k) ulps = std::max(ulps, std::abs((int)(short)a[k] - (int)(short)b[k]));
          if (!res_ok || ulps > 2) printf("MISMATCH %s: residual %s, output up to %d bf16 ulps off\n", vs[v].first.c_str(),
                                          res_ok ? "exact" : "DIFFERS", ulps);
        }
      }
    const double mb = n * 2.0 * 4 / 1e6;
    std::sort(med[vs.size() - 2].begin(), med[vs.size() - 2].end());
    const double ceil_us = med[vs.size() - 2][1];
    printf("%dx%d bf16 fused_add_rmsnorm: %.1f MB moved; copy kernel %.2f us = %.2f TB/s\n", R, D, mb, ceil_us, mb / ceil_us);
    for (size_t v = 0; v < vs.size(); ++v) {
      std::sort(med[v].begin(), med[v].end());
      printf("  %-34s %8.2f us  %5.1f %% of the copy kernel  (rounds %.2f %.2f %.2f)\n", vs[v].first.c_str(), med[v][1],
             100 * ceil_us / med[v][1], med[v][0], med[v][1], med[v][2]);
    }
    fflush(stdout);
    for (V8* p : {x, r, x0, r0, xref, rref, c1, c2, w}) cudaFree(p);
  }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
