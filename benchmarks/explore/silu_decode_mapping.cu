// Issue 19, session 28: silu_and_mul at decode batches (8-256 rows), d = 4096 and neighbours. Ours (the decode
// rule: blocks of 256 threads, one 16-byte vector of a, of b and of out per thread, so 2 blocks a row at d = 4096)
// trailed FlashInfer 0.7.2 (one block a row, a stride loop) by 2-4 % at 128-256 rows. Which thread mapping
// finishes a latency-bound launch first? Six mappings of the same arithmetic, bf16 and fp16, timed like
// bench_vs_flashinfer (CUDA events around one launch, 256 MB L2 flush before each) with more samples (the
// differences are ~0.1 us): median and 10 %-trimmed mean of 200, 3 interleaved rounds; outputs compared bit for bit.
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/v benchmarks/explore/silu_decode_mapping.cu && /tmp/v
#include "explore.cuh"

__device__ __forceinline__ float silu(float x) { return x / (1.0f + __expf(-x)); }
template <typename T>
__device__ __forceinline__ V8<T> op(V8<T> a, V8<T> b) {
  V8<T> o;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float2 fa = Pair<T>::f2(a.h[j]), fb = Pair<T>::f2(b.h[j]);
    o.h[j] = Pair<T>::mk(silu(fa.x) * fb.x, silu(fa.y) * fb.y);
  }
  return o;
}

// K blocks a row (row-major flat block index, as ours), each thread kPer vectors strided by the block, all loads
// issued before the first store
template <typename T, int kPer>
__global__ void split(const V8<T>* __restrict__ in, V8<T>* __restrict__ out, int nvec, int row_blocks) {
  const int r = blockIdx.x / row_blocks, chunk = blockIdx.x - r * row_blocks;
  const V8<T>* a = in + (size_t)r * 2 * nvec; const V8<T>* b = a + nvec; V8<T>* o = out + (size_t)r * nvec;
  const int base = chunk * blockDim.x * kPer + threadIdx.x;
  V8<T> va[kPer], vb[kPer];
#pragma unroll
  for (int k = 0; k < kPer; ++k) { const int i = base + k * blockDim.x; if (i < nvec) { va[k] = a[i]; vb[k] = b[i]; } }
#pragma unroll
  for (int k = 0; k < kPer; ++k) { const int i = base + k * blockDim.x; if (i < nvec) o[i] = op<T>(va[k], vb[k]); }
}
// one block a row, a stride loop (FlashInfer's shape of loop; unroll 1 keeps one vector in flight per thread)
template <typename T>
__global__ void rowloop(const V8<T>* __restrict__ in, V8<T>* __restrict__ out, int nvec) {
  const V8<T>* a = in + (size_t)blockIdx.x * 2 * nvec; const V8<T>* b = a + nvec; V8<T>* o = out + (size_t)blockIdx.x * nvec;
#pragma unroll 1
  for (int i = threadIdx.x; i < nvec; i += blockDim.x) o[i] = op<T>(a[i], b[i]);
}

template <typename T>
void run(const char* tname, int R, int D, char* flush, cudaEvent_t e0, cudaEvent_t e1) {
  const int nvec = D / 8;
  V8<T>*in, *out, *ref;
  cudaMalloc(&in, (size_t)R * 2 * D * 2); cudaMalloc(&out, (size_t)R * D * 2); cudaMalloc(&ref, (size_t)R * D * 2);
  std::vector<unsigned short> h((size_t)R * 2 * D);
  for (size_t k = 0; k < h.size(); ++k) h[k] = 0x3c00 ^ (unsigned short)((k * 2654435761u) >> 20 & 0x1ff);
  cudaMemcpy(in, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  auto cdiv = [](int a, int b) { return (a + b - 1) / b; };
  Variants vs;
  auto add_split = [&](int threads, int per) {
    const int work = cdiv(nvec, per), t = std::min(threads, cdiv(work, 32) * 32), rb = cdiv(work, t);
    std::string name = std::to_string(rb) + "x" + std::to_string(t) + "thr x" + std::to_string(per) + "vec";
    if (per == 1) vs.push_back({name, [=] { split<T, 1><<<R * rb, t>>>(in, out, nvec, rb); }});
    if (per == 2) vs.push_back({name, [=] { split<T, 2><<<R * rb, t>>>(in, out, nvec, rb); }});
    if (per == 4) vs.push_back({name, [=] { split<T, 4><<<R * rb, t>>>(in, out, nvec, rb); }});
  };
  add_split(256, 1);  // ours, the decode rule
  add_split(512, 1);
  add_split(256, 2);
  add_split(128, 1);
  add_split(128, 4);
  for (int t : {256, 512}) {
    const int tt = std::min(t, nvec);
    vs.push_back({"1x" + std::to_string(tt) + "thr loop", [=] { rowloop<T><<<R, tt>>>(in, out, nvec); }});
  }
  vs[0].second(); cudaMemcpy(ref, out, (size_t)R * D * 2, cudaMemcpyDeviceToDevice);
  printf("%dx%d %s\n", R, D, tname);
  time_variants(vs, flush, e0, e1, 200, 22, [&](size_t v) -> std::string {
    // the same output as the first variant's: one more launch into a poisoned buffer
    cudaMemset(out, 0xff, (size_t)R * D * 2);
    vs[v].second();
    std::vector<unsigned short> a((size_t)R * D), b((size_t)R * D);
    cudaMemcpy(a.data(), out, a.size() * 2, cudaMemcpyDeviceToHost); cudaMemcpy(b.data(), ref, b.size() * 2, cudaMemcpyDeviceToHost);
    return a == b ? "" : "  MISMATCH";
  });
  cudaFree(in); cudaFree(out); cudaFree(ref);
}

int main(int argc, char** argv) {
  std::vector<int> rows = {8, 32, 64, 128, 256}, ds = {4096, 2048, 11008, 14336};
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
  for (int D : ds)
    for (int R : rows) {
      run<__half>("fp16", R, D, flush, e0, e1);
      run<__nv_bfloat16>("bf16", R, D, flush, e0, e1);
    }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
