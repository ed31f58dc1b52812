// Shared by the decode explorers (silu_decode_mapping.cu, silu_decode_math.cu, norm_decode_weight.cu,
// norm_decode_pipe.cu): 16-bit pair types with their float conversions, the 16-byte vector of 8 elements, pseudo-random
// inputs, the timing of variants as bench_vs_flashinfer.py times a launch (CUDA events around it, 256 MB L2 flush
// before each; median and 10 %-trimmed mean of n samples, three interleaved rounds), and the norm explorers' frame.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

template <typename T> struct Pair;
template <> struct Pair<__nv_bfloat16> {
  using P = __nv_bfloat162;
  static __device__ float2 f2(P p) { return __bfloat1622float2(p); }
  static __device__ P mk(float a, float b) { return __floats2bfloat162_rn(a, b); }
  static float host(unsigned short u) { unsigned v = unsigned(u) << 16; float f; memcpy(&f, &v, 4); return f; }
  // f's 16 bits, rounded to nearest (ties away from zero)
  static unsigned short bits(float f) { unsigned u; memcpy(&u, &f, 4); return (unsigned short)((u + 0x8000u) >> 16); }
  static int mant() { return 7; }
  static int minexp() { return -126; }
};
template <> struct Pair<__half> {
  using P = __half2;
  static __device__ float2 f2(P p) { return __half22float2(p); }
  static __device__ P mk(float a, float b) { return __floats2half2_rn(a, b); }
  static float host(unsigned short u) { return __half2float(*reinterpret_cast<__half*>(&u)); }
  static unsigned short bits(float f) { __half h = __float2half(f); return *reinterpret_cast<unsigned short*>(&h); }
  static int mant() { return 10; }
  static int minexp() { return -14; }
};
// The 16-byte vector of 8 elements. Its copies go through the uint4: a struct of four bf16x2 / half2 members alone
// is copied member by member, as four 4-byte loads or stores (the explorers before session 30 measured those).
template <typename T> struct __align__(16) V8 {
  typename Pair<T>::P h[4];
  V8() = default;
  __host__ __device__ V8(const V8& o) { *reinterpret_cast<uint4*>(h) = *reinterpret_cast<const uint4*>(o.h); }
  __host__ __device__ V8& operator=(const V8& o) {
    *reinterpret_cast<uint4*>(h) = *reinterpret_cast<const uint4*>(o.h);
    return *this;
  }
};

// One variant's timings over interleaved rounds: each round adds the median and trimmed mean of n launches.
struct Rounds {
  std::vector<float> med;
  std::vector<double> mean;
  // `pre` (when given) runs between the flush and the first event (cold_code.cu: what warms the code, not the data)
  void time(const std::function<void()>& launch, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n,
            const std::function<void()>& pre = nullptr) {
    std::vector<float> t;
    for (int it = 0; it < n; ++it) {
      cudaMemsetAsync(flush, it, 256 << 20);
      if (pre) pre();
      cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms * 1000);
    }
    std::sort(t.begin(), t.end());
    med.push_back(t[n / 2]);
    double s = 0; for (int k = n / 10; k < n - n / 10; ++k) s += t[k];
    mean.push_back(s / (n - 2 * (n / 10)));
  }
  // "  NAME median M us  trimmed mean T us (rounds a b c)TAIL": the middle of three rounds for both
  void print(const std::string& name, int width, const std::string& tail = "") {
    std::sort(med.begin(), med.end()); std::sort(mean.begin(), mean.end());
    printf("  %-*s median %6.2f us  trimmed mean %6.3f us (rounds %.3f %.3f %.3f)%s\n", width, name.c_str(), med[1],
           mean[1], mean[0], mean[1], mean[2], tail.c_str());
  }
};

// The next pseudo-random value of the sequence `s` (a linear congruential step), uniform in [-span/2, span/2), as T's bits.
template <typename T>
unsigned short random16(unsigned& s, float span) {
  s = s * 1664525u + 1013904223u;
  return Pair<T>::bits(((s >> 8) * (1.0f / 16777216.0f) - 0.5f) * span);
}

// "1,8,32" -> {1, 8, 32}: the explorers' comma-list arguments
inline std::vector<int> csv_ints(const char* csv) {
  std::vector<int> v;
  for (const char* c = csv; *c;) { v.push_back(atoi(c)); while (*c && *c != ',') ++c; if (*c) ++c; }
  return v;
}

// lib_ab_tu.cu's entry, one per tree of the library (-DLIB_AB_ENTRY=NAME), and cold_code_fi_tu.cu's FlashInfer norm:
// op 0 rmsnorm (x, w -> out), 1 fused_add_rmsnorm (x, residual, w; in place), 2 silu_and_mul; rows, d, fp16 (else bf16)
using LibEntry = cudaError_t(int op, const void* x, void* residual, void* out, const void* w, int rows, int d, bool fp16);

// The fused op's in-place copy ceiling: x and the residual (n 16-byte vectors each, flat) read and written back
// swapped, as the op writes both in place (row_lines_copy.cu's `flat`, lib_ab.cu's `cp`).
namespace {
__global__ void swap_copy(uint4* x, uint4* r, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) { const uint4 u = x[i], v = r[i]; x[i] = v; r[i] = u; }
}
}  // namespace

// Named launches of one shape, timed in three interleaved rounds of n launches each. After a variant's first-round
// timing, `check(v)` (when given) may look at its output and returns what to print after its times ("" for nothing);
// then one line per variant, the name padded to `width`. `pre[v]` (when given and set) runs between the flush and
// variant v's first event (Rounds::time).
using Variants = std::vector<std::pair<std::string, std::function<void()>>>;
inline void time_variants(const Variants& vs, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n, int width,
                          const std::function<std::string(size_t)>& check = nullptr,
                          const std::vector<std::function<void()>>& pre = {}) {
  std::vector<Rounds> timed(vs.size());
  std::vector<std::string> tail(vs.size());
  for (int round = 0; round < 3; ++round)
    for (size_t v = 0; v < vs.size(); ++v) {
      timed[v].time(vs[v].second, flush, e0, e1, n, v < pre.size() ? pre[v] : nullptr);
      if (round == 0 && check) tail[v] = check(v);
    }
  for (size_t v = 0; v < vs.size(); ++v) timed[v].print(vs[v].first, width, tail[v]);
}

// The bf16 rmsnorm explorers' shared frame (norm_decode_weight.cu, norm_decode_pipe.cu): one shape's buffers, x (R x D)
// and the weight pseudo-random in [-2, 2), and the check of a variant's output against the host's float64 norm.
struct NormShape {
  using V = V8<__nv_bfloat16>;
  int R, D;
  V *x, *w, *out;
  std::vector<unsigned short> hx, hw;
  NormShape(int rows, int d) : R(rows), D(d), hx((size_t)rows * d), hw(d) {
    cudaMalloc(&x, hx.size() * 2); cudaMalloc(&w, hw.size() * 2); cudaMalloc(&out, hx.size() * 2);
    unsigned s = 777;
    for (auto& v : hx) v = random16<__nv_bfloat16>(s, 4.0f);
    for (auto& v : hw) v = random16<__nv_bfloat16>(s, 4.0f);
    cudaMemcpy(x, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(w, hw.data(), hw.size() * 2, cudaMemcpyHostToDevice);
  }
  ~NormShape() { cudaFree(x); cudaFree(w); cudaFree(out); }
  // "  max rel err E": out against x * rsqrt(mean(x^2) + 1e-6) * w (without w when !weight; x itself when copy); then
  // out is poisoned, so the next variant's check sees only its own writes
  std::string check(bool copy, bool weight) const {
    using P = Pair<__nv_bfloat16>;
    std::vector<unsigned short> o(hx.size());
    cudaMemcpy(o.data(), out, o.size() * 2, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int r = 0; r < R; ++r) {
      double ssum = 0;
      for (int j = 0; j < D; ++j) { const double a = P::host(hx[(size_t)r * D + j]); ssum += a * a; }
      const double rs = 1 / std::sqrt(ssum / D + 1e-6);
      for (int j = 0; j < D; ++j) {
        const double a = P::host(hx[(size_t)r * D + j]);
        const double want = copy ? a : a * rs * (weight ? P::host(hw[j]) : 1.0);
        worst = std::max(worst, std::fabs(P::host(o[(size_t)r * D + j]) - want) / (std::fabs(want) + 1e-3));
      }
    }
    cudaMemset(out, 0xff, o.size() * 2);
    char buf[64]; snprintf(buf, sizeof buf, "  max rel err %.1e", worst);
    return buf;
  }
};

// The norm explorers' main: no arguments, every rows x {1536, 2048, 4096, 8192} with 200 launches a variant and
// round; ROWS D [N]: that shape only, N launches (e.g. 3, under Nsight Compute). run1 / run2: one shape with one or two
// vectors a thread (the library's decode mapping: two past 512 vectors).
using NormRun = void (*)(int, int, char*, cudaEvent_t, cudaEvent_t, int);
inline int norm_explorer_main(int argc, char** argv, const std::vector<int>& rows, NormRun run1, NormRun run2) {
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  std::vector<std::pair<int, int>> shapes;
  for (int D : {1536, 2048, 4096, 8192})
    for (int R : rows) shapes.push_back({R, D});
  if (argc >= 3) shapes = {{atoi(argv[1]), atoi(argv[2])}};
  const int n = argc >= 4 ? std::max(atoi(argv[3]), 3) : 200;
  for (auto [R, D] : shapes) (D / 8 > 512 ? run2 : run1)(R, D, flush, e0, e1, n);
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
