// Issue 19, session 55: the gated ops at decode tie with FlashInfer at the copy's time (both at 97-103 % of a same-bytes
// copy; an empty kernel is ~3 us of ~3.9). The chain of one such launch after the 256 MB flush: launch, the loads' DRAM
// round trip, the math, the stores. The stores go to an address no thread has touched yet: its L2 line is not there
// (the flush left L2 full of dirty lines) and its translation may not be in the SM's TLB. Does touching the output
// while the loads are in flight shorten the chain? A gated copy (2d in, d out, 16-byte vectors, the bench's
// copy_gated mapping: a row's vectors on grid.x in 256-thread blocks, the row on grid.y) with:
//   base:   the bench's copy kernel
//   pfL2:   every thread `prefetch.global.L2` of its output vector before its loads
//   pfL2w:  one thread in 8 (one a 128-byte line) does so
//   pfL1:   every thread `prefetch.global.L1` of its output vector
//   ldout:  one thread in 8 loads a word of its output line (value unused) before its loads
//   inplace: the result stored over the first half (addresses the loads touched): what a warm store costs
// Two layouts: `adj` (out right after in, one allocation, as torch's caching allocator places small tensors) and
// `far` (out in its own allocation). Timed as lib_ab times a launch (CUDA events around one launch, 256 MB L2 flush
// before each, three interleaved rounds).
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/sw benchmarks/explore/store_warm.cu
//   /tmp/sw [N [ROWS,... [D,...]]]     e.g. /tmp/sw 100 1,4,46,256 1632,1960,4096
#include "explore.cuh"

namespace {

enum Mode { kBase, kPfL2, kPfL2w, kPfL1, kLdOut, kInplace };

template <int kMode>
__global__ void gated_copy(const uint4* __restrict__ in, uint4* out, int64_t nv) {
  const int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x, r = blockIdx.y;
  if (j >= nv) return;
  uint4* o = kMode == kInplace ? const_cast<uint4*>(in) + r * 2 * nv + j : out + r * nv + j;
  if (kMode == kPfL2) asm volatile("prefetch.global.L2 [%0];" ::"l"(o));
  if (kMode == kPfL2w && threadIdx.x % 8 == 0) asm volatile("prefetch.global.L2 [%0];" ::"l"(o));
  if (kMode == kPfL1) asm volatile("prefetch.global.L1 [%0];" ::"l"(o));
  if (kMode == kLdOut && threadIdx.x % 8 == 0) {
    unsigned dummy;
    asm volatile("ld.global.b32 %0, [%1];" : "=r"(dummy) : "l"(o));
  }
  const uint4 u = in[r * 2 * nv + j], v = in[r * 2 * nv + nv + j];
  *o = make_uint4(u.x ^ v.x, u.y ^ v.y, u.z ^ v.z, u.w ^ v.w);
}

__global__ void empty_kernel() {}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc >= 2 ? atoi(argv[1]) : 100;
  const std::vector<int> rows = argc >= 3 ? csv_ints(argv[2]) : std::vector<int>{1, 4, 9, 30, 46, 64, 128, 256};
  const std::vector<int> ds = argc >= 4 ? csv_ints(argv[3]) : std::vector<int>{1632, 1960, 2048, 4096, 14336};
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("%s, %d SMs; fp16 gated copy (2d in, d out), us per launch\n", p.name, p.multiProcessorCount);
  int maxr = 0, maxd = 0;
  for (int r : rows) maxr = std::max(maxr, r);
  for (int d : ds) maxd = std::max(maxd, d);
  const size_t in_bytes = (size_t)maxr * maxd * 2 * 2, out_bytes = (size_t)maxr * maxd * 2;
  char *adj, *far_in, *far_out;
  cudaMalloc(&adj, in_bytes + out_bytes + 4096); cudaMalloc(&far_in, in_bytes); cudaMalloc(&far_out, out_bytes);
  cudaMemset(adj, 0x3c, in_bytes + out_bytes + 4096); cudaMemset(far_in, 0x3c, in_bytes); cudaMemset(far_out, 0, out_bytes);
  for (int d : ds)
    for (int R : rows) {
      if (d * 2 % 16) { printf("%d: not 16-byte rows, skipped\n", d); continue; }
      const int64_t nv = d * 2 / 16;
      const dim3 grid((nv + 255) / 256, R);
      const size_t ib = (size_t)R * d * 4;
      printf("%d x %d (%.0f KB in, %.0f KB out)\n", R, d, ib / 1024.0, ib / 2048.0);
      Variants vs;
      vs.push_back({"empty", [] { empty_kernel<<<1, 32>>>(); }});
      for (int lay = 0; lay < 2; ++lay) {
        const uint4* in = reinterpret_cast<const uint4*>(lay ? far_in : adj);
        uint4* out = reinterpret_cast<uint4*>(lay ? far_out : adj + (ib + 511) / 512 * 512);
        const std::string s = lay ? "/far" : "/adj";
        vs.push_back({"base" + s, [=] { gated_copy<kBase><<<grid, 256>>>(in, out, nv); }});
        vs.push_back({"pfL2" + s, [=] { gated_copy<kPfL2><<<grid, 256>>>(in, out, nv); }});
        vs.push_back({"pfL2w" + s, [=] { gated_copy<kPfL2w><<<grid, 256>>>(in, out, nv); }});
        vs.push_back({"pfL1" + s, [=] { gated_copy<kPfL1><<<grid, 256>>>(in, out, nv); }});
        vs.push_back({"ldout" + s, [=] { gated_copy<kLdOut><<<grid, 256>>>(in, out, nv); }});
        if (lay == 0) vs.push_back({"inplace", [=] { gated_copy<kInplace><<<grid, 256>>>(in, out, nv); }});
      }
      time_variants(vs, flush, e0, e1, n, 10);
      if (cudaGetLastError() != cudaSuccess) { printf("launch error\n"); return 1; }
    }
  return 0;
}
