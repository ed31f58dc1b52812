// Shared by the session-28 SiLU explorers (silu_decode_mapping.cu, silu_decode_math.cu): 16-bit pair types with their
// float conversions, the 16-byte vector of 8 elements, and the timing of one launch as bench_vs_flashinfer.py does it
// (CUDA events around the launch, 256 MB L2 flush before each; median and 10 %-trimmed mean of n samples).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
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
  static int mant() { return 7; }
  static int minexp() { return -126; }
};
template <> struct Pair<__half> {
  using P = __half2;
  static __device__ float2 f2(P p) { return __half22float2(p); }
  static __device__ P mk(float a, float b) { return __floats2half2_rn(a, b); }
  static float host(unsigned short u) { return __half2float(*reinterpret_cast<__half*>(&u)); }
  static int mant() { return 10; }
  static int minexp() { return -14; }
};
template <typename T> struct __align__(16) V8 { typename Pair<T>::P h[4]; };

// One variant's timings over interleaved rounds: each round adds the median and trimmed mean of n launches.
struct Rounds {
  std::vector<float> med;
  std::vector<double> mean;
  void time(const std::function<void()>& launch, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n) {
    std::vector<float> t;
    for (int it = 0; it < n; ++it) {
      cudaMemsetAsync(flush, it, 256 << 20);
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
