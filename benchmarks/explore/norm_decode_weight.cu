// Issue 19, session 29: where do rmsnorm's last ~0.3-0.5 us over a same-grid copy go at decode batches (128-256 rows),
// and does the weight cost it? Every block reads the whole weight vector, so at 256 x 1536 the weight's 24 cache lines
// take as many L2 reads as the 256 rows of x, all aimed at the few L2 slices that hold those lines. Stand-alone
// kernels with the library's decode mapping (one block a row, nvec / vpt threads, one 16-byte vector of bf16 a thread
// and row, vpt = 2 past 512 vectors; warp shuffles, one barrier, per-warp partials summed from shared memory):
//   copy     load x, store it: the same grid and bytes (less the weight), no reduction: the mapping's floor
//   noweight the whole norm without the weight: the reduction's cost over copy
//   early    the weight loaded with the row (the library's decode rule)
//   late     the weight loaded after the reduction (FlashInfer 0.7.2's order; no L2 prefetch)
//   pair     two rows a block, the weight loaded early once for both: half the weight's L2 reads, half the blocks
// CUDA events around one launch, 256 MB L2 flush before each, median and 10 %-trimmed mean of 200, 3 interleaved
// rounds; each variant's output checked against the host.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/n benchmarks/explore/norm_decode_weight.cu && /tmp/n [ROWS D [N]]

#include "explore.cuh"

using bf16 = __nv_bfloat16;
constexpr int kCopy = 0, kNone = 1, kEarly = 2, kLate = 3;

// The rest of the norm: sums of squares, the block's reduction, the weight (late: loaded here), the stores.
template <int kVPT, int kRows, int kW>
__device__ __forceinline__ void normalize(V8<bf16> (&xv)[kRows][kVPT], V8<bf16> (&wv)[kVPT], const V8<bf16>* __restrict__ w,
                                          V8<bf16>* __restrict__ out, int nvec, float inv_d) {
  const int t = threadIdx.x, nt = blockDim.x;
  float ss[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    float a = 0.f, b = 0.f;
#pragma unroll
    for (int k = 0; k < kVPT; ++k)
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const float2 f = Pair<bf16>::f2(xv[r][k].h[j]);
        a += f.x * f.x; b += f.y * f.y;
      }
    ss[r] = a + b;
  }
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
#pragma unroll
    for (int r = 0; r < kRows; ++r) ss[r] += __shfl_xor_sync(0xffffffffu, ss[r], o);
  __shared__ __align__(16) float partial[kRows][32];
  const int nwarps = nt / 32;
  if (t % 32 == 0)
#pragma unroll
    for (int r = 0; r < kRows; ++r) partial[r][t / 32] = ss[r];
  __syncthreads();
  float rstd[kRows];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    float s = 0.f;
    for (int q = 0; q < nwarps; ++q) s += partial[r][q];
    rstd[r] = rsqrtf(s * inv_d + 1e-6f);
  }
  if constexpr (kW == kLate) {
#pragma unroll
    for (int k = 0; k < kVPT; ++k) wv[k] = w[t + k * nt];
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k)
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
      V8<bf16> o;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const float2 f = Pair<bf16>::f2(xv[r][k].h[j]);
        float2 g = make_float2(1.f, 1.f);
        if constexpr (kW != kNone) g = Pair<bf16>::f2(wv[k].h[j]);
        o.h[j] = Pair<bf16>::mk(f.x * rstd[r] * g.x, f.y * rstd[r] * g.y);
      }
      out[r * nvec + t + k * nt] = o;
    }
}

template <int kVPT, int kRows, int kW>
__global__ void __launch_bounds__(1024) norm(const V8<bf16>* __restrict__ x, const V8<bf16>* __restrict__ w,
                                             V8<bf16>* __restrict__ out, int nvec, float inv_d) {
  const int t = threadIdx.x, nt = blockDim.x;
  const size_t r0 = (size_t)blockIdx.x * kRows;
  V8<bf16> xv[kRows][kVPT], wv[kVPT];
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = t + k * nt;
#pragma unroll
    for (int r = 0; r < kRows; ++r) xv[r][k] = x[(r0 + r) * nvec + i];
    if constexpr (kW == kEarly) wv[k] = w[i];
  }
  if constexpr (kW == kCopy) {
#pragma unroll
    for (int k = 0; k < kVPT; ++k)
#pragma unroll
      for (int r = 0; r < kRows; ++r) out[(r0 + r) * nvec + t + k * nt] = xv[r][k];
  } else {
    normalize<kVPT, kRows, kW>(xv, wv, w, out + r0 * nvec, nvec, inv_d);
  }
}

template <int kVPT, int kRows, int kW>
void launch(int rows, int nvec, const V8<bf16>* x, const V8<bf16>* w, V8<bf16>* out, float inv_d) {
  norm<kVPT, kRows, kW><<<rows / kRows, nvec / kVPT>>>(x, w, out, nvec, inv_d);
}

template <int kVPT>
void run(int R, int D, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n) {
  const int nvec = D / 8;
  const NormShape sh(R, D);
  V8<bf16>*x = sh.x, *w = sh.w, *out = sh.out;
  const float inv_d = 1.0f / D;
  const Variants vs = {
      {"copy", [=] { launch<kVPT, 1, kCopy>(R, nvec, x, w, out, inv_d); }},
      {"noweight", [=] { launch<kVPT, 1, kNone>(R, nvec, x, w, out, inv_d); }},
      {"early", [=] { launch<kVPT, 1, kEarly>(R, nvec, x, w, out, inv_d); }},
      {"late", [=] { launch<kVPT, 1, kLate>(R, nvec, x, w, out, inv_d); }},
      {"pair", [=] { launch<kVPT, 2, kEarly>(R, nvec, x, w, out, inv_d); }}};
  printf("%dx%d bf16 (%d threads a block)\n", R, D, nvec / kVPT);
  time_variants(vs, flush, e0, e1, n, 8, [&](size_t v) { return sh.check(vs[v].first == "copy", vs[v].first != "noweight"); });
}

// No arguments: every shape, 200 launches a variant and round. ROWS D [N]: that shape only, N launches (e.g. 3, under
// Nsight Compute: ncu -k regex:norm ...).
int main(int argc, char** argv) { return norm_explorer_main(argc, argv, {32, 128, 256}, run<1>, run<2>); }
