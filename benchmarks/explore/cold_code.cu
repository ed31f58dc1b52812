// Issue 19, session 31: does fetching a kernel's code count in the decode timings? bench_vs_flashinfer.py flushes L2
// (a 256 MB memset) before every timed launch, and that evicts the kernel's instructions from L2 as well as its data.
// Each kernel is timed three ways (CUDA events around one launch, median and 10 %-trimmed mean of n, three interleaved
// rounds, as explore.cuh times), always after the flush:
//   cold   nothing between the flush and the first event (the bench's way);
//   empty  an empty kernel between them (the control: a kernel, not the memset, runs just before);
//   warm   the same kernel between them, on other buffers of the same shape (its code and launch state warm, its
//          data still cold: the timed launch reads and writes only buffers the flush evicted).
// warm - empty is what the code's first fetch (and anything else a kernel's first launch after the flush pays) costs.
// Kernels: the library's rmsnorm / fused_add_rmsnorm (lib_ab_tu.cu, tree a), FlashInfer 0.7.2's (cold_code_fi_tu.cu,
// unless built with -DNO_FI), the bench's 16-byte copy of the same bytes, and straight-line chains of N instructions
// (one warp on every SM) that show the cost per KB of code.
//   nvcc -O3 -std=c++17 -arch=sm_90a -c -I include -Dflashinfer_nb=fnb_a -DLIB_AB_ENTRY=lib_a -o /tmp/ab_a.o \
//     benchmarks/explore/lib_ab_tu.cu
//   nvcc -O3 -std=c++17 -arch=sm_90a -c -I $FI/flashinfer/data/include -o /tmp/fi.o benchmarks/explore/cold_code_fi_tu.cu
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/cold benchmarks/explore/cold_code.cu /tmp/ab_a.o /tmp/fi.o
//   /tmp/cold [N [OPS [ROWS [WIDTHS]]]]   e.g. /tmp/cold 200 rms,fused 8,128,256 1536,4096   (bf16)
#include "explore.cuh"

LibEntry lib_a;
#ifndef NO_FI
LibEntry fi_norm;
#endif

__global__ void copy2_kernel(const uint4* __restrict__ a, const uint4* __restrict__ b, uint4* __restrict__ c,
                             uint4* __restrict__ d, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) { const uint4 u = a[i], v = b[i]; c[i] = u; d[i] = v; }
}
__global__ void empty_kernel() {}

// N instructions in four independent multiply-add chains (runtime operands: nothing folds), one warp a block.
template <int N>
__global__ void chain_kernel(int* out, int a, int b) {
  int v0 = threadIdx.x, v1 = v0 + 1, v2 = v0 + 2, v3 = v0 + 3;
#pragma unroll
  for (int k = 0; k < N / 4; ++k) { v0 = v0 * a + b; v1 = v1 * a + b; v2 = v2 * a + b; v3 = v3 * a + b; }
  if ((v0 ^ v1 ^ v2 ^ v3) == 0x7fffffff) out[threadIdx.x] = v0;  // keeps the chains alive
}

// One kernel's three ways (cold, empty, warm: see the head), each a (name, launch) and what runs before its first event.
struct Ways {
  Variants vs;
  std::vector<std::function<void()>> pre;
  void add(const std::string& name, const std::function<void()>& launch, const std::function<void()>& empty,
           const std::function<void()>& warm) {
    vs.push_back({name + "cold", launch}); pre.push_back(nullptr);
    vs.push_back({name + "empty", launch}); pre.push_back(empty);
    vs.push_back({name + "warm", launch}); pre.push_back(warm);
  }
  void time(const char* title, char* flush, cudaEvent_t e0, cudaEvent_t e1, int n) const {
    printf("%s\n", title);
    time_variants(vs, flush, e0, e1, n, 12, nullptr, pre);
  }
};

int main(int argc, char** argv) {
  const int n = argc >= 2 ? std::max(atoi(argv[1]), 3) : 200;
  const std::string ops = std::string(",") + (argc >= 3 ? argv[2] : "rms,fused") + ",";
  const std::vector<int> rows = csv_ints(argc >= 4 ? argv[3] : "8,128,256"), hiddens = csv_ints(argc >= 5 ? argv[4] : "1536,4096");
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  const int sms = prop.multiProcessorCount;
  printf("%s, %d SMs; bf16; cold / empty / warm: see the head of cold_code.cu\n", prop.name, sms);
  int* sink; cudaMalloc(&sink, 4096);
  auto empty = [] { empty_kernel<<<1, 32>>>(); };

  // the chains: the code alone (no data), 64 to 4096 instructions, one warp on each SM
  auto chains = [&](auto nc) {
    constexpr int N = decltype(nc)::value;
    auto k = [=] { chain_kernel<N><<<sms, 32>>>(sink, 3, 1); };
    char t[64]; snprintf(t, sizeof t, "chain of %d instructions (%d KB of code), %d blocks of 32", N, N * 16 / 1024, sms);
    Ways w;
    w.add("", k, empty, k);
    w.time(t, flush, e0, e1, n);
  };
  chains(std::integral_constant<int, 64>{});
  chains(std::integral_constant<int, 256>{});
  chains(std::integral_constant<int, 1024>{});
  chains(std::integral_constant<int, 4096>{});

  size_t maxe = 0;
  for (int R : rows) for (int D : hiddens) maxe = std::max(maxe, (size_t)R * D);
  // two sets of buffers: the timed launch's (a) and the warm-up's (b)
  void *x[2], *r[2], *w[2], *out[2], *c[2], *d[2];
  std::vector<unsigned short> h(maxe);
  unsigned s = 4321;
  for (int b = 0; b < 2; ++b) {
    for (void** p : {&x[b], &r[b], &out[b], &c[b], &d[b]}) cudaMalloc(p, maxe * 2);
    cudaMalloc(&w[b], 32768 * 2);
    for (auto& v : h) v = random16<__nv_bfloat16>(s, 4.0f);
    cudaMemcpy(x[b], h.data(), maxe * 2, cudaMemcpyHostToDevice);
    cudaMemcpy(w[b], h.data(), std::min<size_t>(maxe, 32768) * 2, cudaMemcpyHostToDevice);
    for (auto& v : h) v = random16<__nv_bfloat16>(s, 4.0f);
    cudaMemcpy(r[b], h.data(), maxe * 2, cudaMemcpyHostToDevice);
  }
  std::vector<std::pair<std::string, LibEntry*>> impls = {{"ours", lib_a}};
#ifndef NO_FI
  impls.push_back({"flashinfer", fi_norm});
#endif
  for (int op = 0; op < 2; ++op)
    for (int D : hiddens)
      for (int R : rows) {
        if (ops.find(op == 0 ? ",rms," : ",fused,") == std::string::npos) continue;
        const bool fused = op == 1;
        Ways ways;
        for (auto& [name, fn] : impls) {
          auto on = [=, fn = fn](int b) { return [=] { fn(op, x[b], fused ? r[b] : nullptr, fused ? x[b] : out[b], w[b], R, D, false); }; };
          ways.add(name + " ", on(0), empty, on(1));
        }
        // the copy of the op's bytes (rmsnorm: x in halves to two outputs; fused: x and the residual), as the bench's
        const int64_t n16 = (int64_t)R * D * 2 / 16 / (fused ? 1 : 2);
        auto cp = [=](int b) {
          const uint4* src1 = (const uint4*)x[b];
          const uint4* src2 = fused ? (const uint4*)r[b] : src1 + n16;
          return [=] { copy2_kernel<<<(n16 + 255) / 256, 256>>>(src1, src2, (uint4*)c[b], (uint4*)d[b], n16); };
        };
        ways.add("copy ", cp(0), empty, cp(1));
        char t[96]; snprintf(t, sizeof t, "%s %dx%d bf16", fused ? "fused_add_rmsnorm" : "rmsnorm", R, D);
        ways.time(t, flush, e0, e1, n);
      }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
