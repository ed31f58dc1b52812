// Issue 19, session 30: is the rmsnorm's gap to a same-grid copy at 128-256 decode rows the store burst? A copy's
// stores leave as each load lands, so they overlap the loads; a norm's stores all wait for the row's reduction, and at
// 128-256 rows every block is resident at once, so every row reaches its stores at about the same moment and the
// whole output leaves in one burst after the last load. Stand-alone bf16 kernels with the library's decode mapping
// (one 16-byte vector of a row a thread, vpt = 2 past 512 vectors; weight loaded with the row):
//   copy     load x, store it (same grid, no reduction)
//   barcopy  load x, one __syncthreads, store it: the cost of the block-wide dependency alone
//   early    the library's decode kernel (shuffles, one barrier, per-warp partials summed from shared memory)
//   pipe2    two rows a block, both rows' loads issued up front; row A is reduced and stored while row B's bytes may
//            still arrive, then row B: half the output waits for the last load instead of all of it
//   pipe2i   pipe2 with the rows of a block half the batch apart (b and b + rows / 2)
//   stcs     early with streaming stores (st.global.cs)
//   ldnc     early with loads through the non-coherent path and a 256-byte L2 fetch hint
//   earlyl1  early with the shared-memory carveout preference at its minimum (the most L1), earlysm at its maximum:
//            does the SM reconfigure its L1 / shared split between the flush (no shared memory) and the norm?
//   now      early without the weight (x * rstd): 24 instructions a thread fewer after the barrier. If the time
//            after the barrier were the scheduler's (every warp of the SM wanting it at once), this would show it
// CUDA events around one launch, 256 MB L2 flush before each, median and 10 %-trimmed mean, 3 interleaved rounds;
// every variant's output checked against the host.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/p benchmarks/explore/norm_decode_pipe.cu && /tmp/p [ROWS D [N]]

#include "explore.cuh"

using bf16 = __nv_bfloat16;
using V = V8<bf16>;
enum Var { kCopy, kBarCopy, kEarly, kPipe, kPipeI, kStCs, kLdNc, kNoW, kEarlyL1, kEarlySm };

template <int kVar>
__device__ __forceinline__ V load(const V* p) {
  if constexpr (kVar == kLdNc) {
    uint4 u;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(u.x), "=r"(u.y), "=r"(u.z), "=r"(u.w) : "l"(p));
    return *reinterpret_cast<V*>(&u);
  } else {
    return *p;  // one 16-byte load: V8's copy goes through a uint4 (explore.cuh)
  }
}
template <int kVar>
__device__ __forceinline__ void store(V* p, const V& v) {
  if constexpr (kVar == kStCs) {
    const uint4 u = *reinterpret_cast<const uint4*>(&v);
    asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(u.x), "r"(u.y), "r"(u.z), "r"(u.w) : "memory");
  } else {
    *p = v;
  }
}

// One row's sum of squares over the block: shuffles, then per-warp partials in `slot` summed by every thread.
template <int kVPT>
__device__ __forceinline__ float row_rstd(const V (&xv)[kVPT], float* slot, float inv_d) {
  float a = 0.f, b = 0.f;
#pragma unroll
  for (int k = 0; k < kVPT; ++k)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 f = Pair<bf16>::f2(xv[k].h[j]);
      a += f.x * f.x; b += f.y * f.y;
    }
  float ss = a + b;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
  if (threadIdx.x % 32 == 0) slot[threadIdx.x / 32] = ss;
  __syncthreads();
  float s = 0.f;
  for (int q = 0; q < (int)blockDim.x / 32; ++q) s += slot[q];
  return rsqrtf(s * inv_d + 1e-6f);
}

template <int kVar, int kVPT>
__device__ __forceinline__ void write_row(V* out, const V (&xv)[kVPT], const V (&wv)[kVPT], float rstd) {
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    V o;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float2 f = Pair<bf16>::f2(xv[k].h[j]);
      const float2 g = kVar == kNoW ? make_float2(1.f, 1.f) : Pair<bf16>::f2(wv[k].h[j]);
      o.h[j] = kVar == kNoW ? Pair<bf16>::mk(f.x * rstd, f.y * rstd) : Pair<bf16>::mk(f.x * rstd * g.x, f.y * rstd * g.y);
    }
    store<kVar>(out + threadIdx.x + k * blockDim.x, o);
  }
}

template <int kVar, int kVPT>
__global__ void __launch_bounds__(1024) norm(const V* __restrict__ x, const V* __restrict__ w, V* __restrict__ out,
                                             int nvec, int rows, float inv_d) {
  const int t = threadIdx.x, nt = blockDim.x;
  __shared__ float slot[2][32];
  if constexpr (kVar == kPipe || kVar == kPipeI) {
    const size_t ra = kVar == kPipe ? 2 * (size_t)blockIdx.x : blockIdx.x;
    const size_t rb = kVar == kPipe ? ra + 1 : ra + rows / 2;
    V xa[kVPT], xb[kVPT], wv[kVPT];
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      xa[k] = load<kVar>(x + ra * nvec + t + k * nt);
      wv[k] = load<kVar>(w + t + k * nt);
    }
#pragma unroll
    for (int k = 0; k < kVPT; ++k) xb[k] = load<kVar>(x + rb * nvec + t + k * nt);
    write_row<kVar, kVPT>(out + ra * nvec, xa, wv, row_rstd<kVPT>(xa, slot[0], inv_d));
    write_row<kVar, kVPT>(out + rb * nvec, xb, wv, row_rstd<kVPT>(xb, slot[1], inv_d));
  } else {
    const size_t r = blockIdx.x;
    V xv[kVPT], wv[kVPT];
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      xv[k] = load<kVar>(x + r * nvec + t + k * nt);
      if constexpr (kVar != kCopy && kVar != kBarCopy && kVar != kNoW) wv[k] = load<kVar>(w + t + k * nt);
    }
    if constexpr (kVar == kCopy || kVar == kBarCopy) {
      if constexpr (kVar == kBarCopy) {  // a barrier that waits for the loads (a bare one is hoisted above them)
        unsigned any = 0;
#pragma unroll
        for (int k = 0; k < kVPT; ++k) any |= reinterpret_cast<const uint4*>(&xv[k])->x;
        if (__syncthreads_count(any == 0x7fc07fc0u) < 0) return;
      }
#pragma unroll
      for (int k = 0; k < kVPT; ++k) store<kVar>(out + r * nvec + t + k * nt, xv[k]);
    } else {
      write_row<kVar, kVPT>(out + r * nvec, xv, wv, row_rstd<kVPT>(xv, slot[0], inv_d));
    }
  }
}

template <int kVPT>
void run(int R, int D, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n) {
  const int nvec = D / 8, nt = nvec / kVPT;
  const NormShape sh(R, D);
  V *x = sh.x, *w = sh.w, *out = sh.out;
  const float inv_d = 1.0f / D;
  auto one = [=](auto var, int grid) { return [=] { norm<decltype(var)::value, kVPT><<<grid, nt>>>(x, w, out, nvec, R, inv_d); }; };
  using C = std::integral_constant<int, kCopy>; using B = std::integral_constant<int, kBarCopy>;
  using E = std::integral_constant<int, kEarly>; using P = std::integral_constant<int, kPipe>;
  using PI = std::integral_constant<int, kPipeI>; using S = std::integral_constant<int, kStCs>;
  using L = std::integral_constant<int, kLdNc>; using NW = std::integral_constant<int, kNoW>;
  using EL = std::integral_constant<int, kEarlyL1>; using ES = std::integral_constant<int, kEarlySm>;
  cudaFuncSetAttribute(norm<kEarlyL1, kVPT>, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxL1);
  cudaFuncSetAttribute(norm<kEarlySm, kVPT>, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
  const Variants vs = {{"copy", one(C{}, R)},       {"barcopy", one(B{}, R)}, {"early", one(E{}, R)},
                       {"pipe2", one(P{}, R / 2)},  {"pipe2i", one(PI{}, R / 2)}, {"stcs", one(S{}, R)},
                       {"ldnc", one(L{}, R)},     {"now", one(NW{}, R)},    {"earlyl1", one(EL{}, R)},
                       {"earlysm", one(ES{}, R)}};
  printf("%dx%d bf16 (%d threads a block)\n", R, D, nt);
  time_variants(vs, flush, e0, e1, n, 8, [&](size_t v) {
    return sh.check(vs[v].first.find("copy") != std::string::npos, vs[v].first != "now");
  });
}

// No arguments: every shape, 200 launches a variant and round. ROWS D [N]: that shape only, N launches.
int main(int argc, char** argv) { return norm_explorer_main(argc, argv, {128, 256}, run<1>, run<2>); }
