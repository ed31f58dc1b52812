// Issue 19, session 51: the fused op's wide rows that do not start on a 128-byte line run at ~95 % of the copy on the
// H200 (on lines 96-99 %), and Nsight Compute shows DRAM moving exactly the ideal bytes either way
// (NVIDIA_H200_ncu_row_lines_s51.txt). Is the loss the row structure itself? Kernels that move the fused op's bytes
// (x and the residual read, both written back in place, 16-byte vectors) with no arithmetic but the op's shape:
//   flat:   the tensors as one flat range (ignores rows; needs stride == width): the in-place copy's ceiling
//   layout: each row's vectors on grid.x, the row on grid.y, no barrier (a copy of this layout, rows and all)
//   rowV:   one block a row, V vectors a thread, every load, a block-wide sum, then the stores (the op's shape)
//   shiftV: rowV with the threads' vectors starting at the row's first 128-byte line (each warp on whole lines)
//   pairV:  one block for two neighbouring rows, mapped from the first row's line over both (stride == width): the
//           line the two rows share is read and written by one block; two sums
// Session 53, the set `tail` (4th argument): where the op's extra steady and fixed cost at 8192+ rows comes from
//   row4l:  row4 with the residual stored after the sum, with x (the op's res_late)
//   row4w / row4we: row4 that also reads a weight row (in L2) and mixes it into x's stores: after the block-wide sum
//           (the op's late weight, a second trip to L2 in the block's life) or with the row's loads (held early);
//           row4wp: late, with an L1 prefetch of it at the block's start; row4wpcs: that, the row's loads streaming
//   pipeB:  a persistent grid (B blocks an SM), each block's rows grid apart, the next row's loads issued before this
//           row's sum and stores (two rows' vectors in registers): does the row shape's idle phase cost the rate?
//   lbB=OxRr: row4 under __launch_bounds__(threads, B): O blocks an SM fit, R registers (s: it spills)
//   clus:   row4 launched in clusters of two (the launch's cost alone)
//   tailT:  clusters of two; the last T rows each split across a cluster's two blocks (half the vectors each), the
//           halves' sums exchanged through distributed shared memory: shorter blocks at the grid's end
// Timed as lib_ab times a launch (CUDA events around one launch, 256 MB L2 flush before each, three interleaved rounds).
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/rlc benchmarks/explore/row_lines_copy.cu
//   /tmp/rlc [N [ROWS [WIDTH:STRIDE,...] [lines|tail]]]   e.g. /tmp/rlc 30 8192 16384:16384,16384:16392,16376:16376
#include <cooperative_groups.h>
#include "explore.cuh"

namespace {

constexpr int kLineVecs = 8;  // 16-byte vectors in a 128-byte line

// The block's sum of one int a thread (the kernels' stand-in for the row's sum of squares).
__device__ __forceinline__ int block_sum(int v, int* part) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  int s = 0;
  for (int w = 0; w < (int)blockDim.x / 32; ++w) s += part[w];
  return s;
}
__device__ __forceinline__ int block_sum(int v) {
  __shared__ int part[32];
  return block_sum(v, part);
}

// What a vector contributes to the sum, and the value stored: u itself unless the sum hits a value the data never
// gives (the compiler cannot drop the stores' dependence on every load).
__device__ __forceinline__ int bits(uint4 u) { return (int)(u.x ^ u.y ^ u.z ^ u.w) & 0xff; }
__device__ __forceinline__ uint4 mark(uint4 u, int s) { u.x ^= (s == -12345); return u; }
__device__ __forceinline__ uint4 mix(uint4 u, uint4 w) { return make_uint4(u.x ^ w.x, u.y ^ w.y, u.z ^ w.z, u.w ^ w.w); }

__global__ void layout_kernel(uint4* x, uint4* r, int nvec, int64_t svec) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t o = blockIdx.y * svec + j;
  if (j < nvec) { const uint4 u = x[o], v = r[o]; x[o] = v; r[o] = u; }
}

// Both operands' vectors at the thread's slots threadIdx.x + k * blockDim.x - s that fall in [0, n): every load first.
template <int kVPT>
__device__ __forceinline__ void load_slots(const uint4* x, const uint4* r, int s, int n, uint4 (&xv)[kVPT], uint4 (&rv)[kVPT]) {
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < n) { xv[k] = x[i]; rv[k] = r[i]; }
  }
}

// kShift: thread t takes vector t - s + k * blockDim.x, s = the row's vectors before it in its first line.
template <int kVPT, bool kShift, bool kResLate = false>
__device__ __forceinline__ void row_body(uint4* x_, uint4* r_, int nvec, int64_t svec) {
  uint4* x = x_ + blockIdx.x * svec;
  uint4* r = r_ + blockIdx.x * svec;
  const int s = kShift ? (int)(reinterpret_cast<uintptr_t>(x) / 16 % kLineVecs) : 0;
  uint4 xv[kVPT], rv[kVPT];
  int acc = 0;
  load_slots<kVPT>(x, r, s, nvec, xv, rv);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < nvec) {
      acc += bits(xv[k]) + bits(rv[k]);
      if (!kResLate) r[i] = rv[k];  // the residual stored early, as the op's 16-byte rows past 1.5 blocks an SM do not
    }
  }
  const int sum = block_sum(acc);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < nvec) {
      if (kResLate) r[i] = rv[k];
      x[i] = mark(xv[k], sum);
    }
  }
}
template <int kVPT, bool kShift, bool kResLate = false>
__global__ void row_kernel(uint4* x, uint4* r, int nvec, int64_t svec) {
  row_body<kVPT, kShift, kResLate>(x, r, nvec, svec);
}

// row_kernel<4, false> held to kB blocks of kT threads an SM (__launch_bounds__: fewer registers, more blocks).
template <int kT, int kB>
__global__ void __launch_bounds__(kT, kB) rowlb_kernel(uint4* x, uint4* r, int nvec, int64_t svec) {
  row_body<4, false>(x, r, nvec, svec);
}

// Rows 2b and 2b + 1 of a contiguous tensor (stride == width) as one flat span, mapped from the first row's line.
template <int kVPT>
__global__ void pair_kernel(uint4* x_, uint4* r_, int nvec, int rows) {
  const int64_t row0 = 2 * (int64_t)blockIdx.x;
  const int nrows = row0 + 1 < rows ? 2 : 1;
  uint4* x = x_ + row0 * nvec;
  uint4* r = r_ + row0 * nvec;
  const int s = (int)(reinterpret_cast<uintptr_t>(x) / 16 % kLineVecs);
  const int span = nrows * nvec;
  uint4 xv[kVPT], rv[kVPT];
  int acc0 = 0, acc1 = 0;
  load_slots<kVPT>(x, r, s, span, xv, rv);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < span) {
      const int b = bits(xv[k]) + bits(rv[k]);
      if (i < nvec) acc0 += b; else acc1 += b;
      r[i] = rv[k];
    }
  }
  const int sum0 = block_sum(acc0);
  __syncthreads();
  const int sum1 = block_sum(acc1);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < span) x[i] = mark(xv[k], i < nvec ? sum0 : sum1);
  }
}

// row_kernel<kVPT, false> with a weight row w (nvec vectors, in L2 after the first blocks) xor-ed into x's stores.
// kW: 0 the weight late (after the block-wide sum), 1 early (with the row's loads, held in registers), 2 late with an
// L1 prefetch of it at the start, 3 as 2 with the row's loads marked streaming (ld.global.cs: evict first).
enum { kWLate, kWEarly, kWPrefetch, kWPrefetchCs };
template <int kVPT, int kW>
__global__ void roww_kernel(uint4* x_, uint4* r_, const uint4* w, int nvec, int64_t svec) {
  uint4* x = x_ + blockIdx.x * svec;
  uint4* r = r_ + blockIdx.x * svec;
  uint4 xv[kVPT], rv[kVPT], wv[kVPT];
  int acc = 0;
  if (kW >= kWPrefetch) {
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = threadIdx.x + k * blockDim.x;
      if (i < nvec) asm volatile("prefetch.global.L1 [%0];" ::"l"(w + i));
    }
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < nvec) {
      if (kW == kWPrefetchCs) { xv[k] = __ldcs(x + i); rv[k] = __ldcs(r + i); }
      else { xv[k] = x[i]; rv[k] = r[i]; }
      if (kW == kWEarly) wv[k] = w[i];
    }
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < nvec) { acc += bits(xv[k]) + bits(rv[k]); r[i] = rv[k]; }
  }
  const int sum = block_sum(acc);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (kW != kWEarly && i < nvec) wv[k] = w[i];
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < nvec) x[i] = mark(mix(xv[k], wv[k]), sum);
  }
}

// One row's sum and stores (its vectors already loaded), the block sum through `part`.
template <int kVPT>
__device__ __forceinline__ void finish_row(uint4* x, uint4* r, int nvec, const uint4 (&xv)[kVPT],
                                           const uint4 (&rv)[kVPT], int* part) {
  int acc = 0;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < nvec) { acc += bits(xv[k]) + bits(rv[k]); r[i] = rv[k]; }
  }
  const int sum = block_sum(acc, part);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < nvec) x[i] = mark(xv[k], sum);
  }
}

// Persistent: rows blockIdx.x, + gridDim.x, ...; row n + 1's loads issued before row n's sum and stores. The two
// register sets alternate (a, b), and so do the sums' shared buffers (a buffer is reused two sums later, after a
// __syncthreads of the sum between).
template <int kVPT>
__global__ void pipe_kernel(uint4* x_, uint4* r_, int nvec, int64_t svec, int R) {
  __shared__ int part[2][32];
  uint4 xa[kVPT], ra[kVPT], xb[kVPT], rb[kVPT];
  int row = blockIdx.x;
  if (row >= R) return;
  load_slots<kVPT>(x_ + row * svec, r_ + row * svec, 0, nvec, xa, ra);
  for (;;) {
    int nxt = row + gridDim.x;
    if (nxt < R) load_slots<kVPT>(x_ + nxt * svec, r_ + nxt * svec, 0, nvec, xb, rb);
    finish_row<kVPT>(x_ + row * svec, r_ + row * svec, nvec, xa, ra, part[0]);
    if (nxt >= R) break;
    row = nxt;
    nxt = row + gridDim.x;
    if (nxt < R) load_slots<kVPT>(x_ + nxt * svec, r_ + nxt * svec, 0, nvec, xa, ra);
    finish_row<kVPT>(x_ + row * svec, r_ + row * svec, nvec, xb, rb, part[1]);
    if (nxt >= R) break;
    row = nxt;
  }
}

// Launched in clusters of two. Blocks under R0 (even) take row blockIdx.x whole; from R0 a cluster's two blocks share
// row R0 + (blockIdx.x - R0) / 2, the first half of its vectors in rank 0, the rest in rank 1, each block's sum sent to
// the other through distributed shared memory. R0 = ROWS: row4 in clusters.
template <int kVPT>
__global__ void tail_kernel(uint4* x_, uint4* r_, int nvec, int64_t svec, int R0) {
  namespace cg = cooperative_groups;
  __shared__ int mine;
  const int b = blockIdx.x;
  const bool split = b >= R0;  // the same in both blocks of a cluster (R0 even)
  const int half = (nvec + 1) / 2, rank = (b - R0) & 1;
  const int64_t row = split ? R0 + (b - R0) / 2 : b;
  const int lo = split && rank ? half : 0;
  const int n = split ? (rank ? nvec - half : half) : nvec;
  uint4* x = x_ + row * svec + lo;
  uint4* r = r_ + row * svec + lo;
  uint4 xv[kVPT], rv[kVPT];
  int acc = 0;
  load_slots<kVPT>(x, r, 0, n, xv, rv);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < n) { acc += bits(xv[k]) + bits(rv[k]); r[i] = rv[k]; }
  }
  int sum = block_sum(acc);
  if (split) {
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x == 0) mine = sum;
    cluster.sync();
    sum += *cluster.map_shared_rank(&mine, rank ^ 1);
    asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");  // done reading the other's `mine`
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x;
    if (i < n) x[i] = mark(xv[k], sum);
  }
  if (split) asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");  // the other has read mine
}

template <typename K, typename... A>
void launch_clusters(K kernel, int grid, int block, A... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cudaLaunchAttribute at[1];
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 2; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
  cfg.attrs = at;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, kernel, args...);
}

int round32(int n) { return (n + 31) / 32 * 32; }

}  // namespace

int main(int argc, char** argv) {
  const int n = argc >= 2 ? std::max(atoi(argv[1]), 3) : 30;
  const int R = argc >= 3 ? atoi(argv[2]) : 8192;
  std::vector<std::pair<int, int>> shapes;
  for (const char* c = argc >= 4 ? argv[3] : "16384:16384,16384:16392,16384:16448,16376:16376,14416:14416,8192:8200"; *c;) {
    const int d = atoi(c); while (*c != ':') ++c; ++c;
    const int st = atoi(c); while (*c && *c != ',') ++c; if (*c) ++c;
    shapes.push_back({d, st});
  }
  size_t maxb = 0;
  for (auto [d, st] : shapes) maxb = std::max(maxb, (size_t)R * st * 2 + 256);
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  printf("%s, %d SMs; %d rows of 16-bit elements; x and the residual read and written back in place\n", prop.name,
         prop.multiProcessorCount, R);
  const bool tail = argc >= 5 && !strcmp(argv[4], "tail");
  char *xb, *rb, *wb;
  cudaMalloc(&xb, maxb); cudaMalloc(&rb, maxb); cudaMalloc(&wb, 65536);
  cudaMemset(xb, 0x3c, maxb); cudaMemset(rb, 0x3c, maxb); cudaMemset(wb, 0x11, 65536);
  for (auto [d, st] : shapes) {
    if (d * 2 % 16 || st * 2 % 16) { printf("%d:%d: not 16-byte rows, skipped\n", d, st); continue; }
    uint4 *x = reinterpret_cast<uint4*>(xb), *r = reinterpret_cast<uint4*>(rb);
    const int nvec = d / 8;
    const int64_t svec = st / 8;
    printf("%dx%d stride %d (%d bytes a row past a line), %.1f MB moved\n", R, d, st, (int)((int64_t)st * 2 % 128),
           4.0 * R * d * 2 / 1e6);
    Variants vs;
    if (tail) {
      const uint4* w = reinterpret_cast<const uint4*>(wb);
      const int nt = round32((nvec + 3) / 4);
      if (st == d) vs.push_back({"flat", [=] { const int64_t m = (int64_t)R * nvec; swap_copy<<<(m + 255) / 256, 256>>>(x, r, m); }});
      vs.push_back({"row4", [=] { row_kernel<4, false><<<R, nt>>>(x, r, nvec, svec); }});
      vs.push_back({"row4l", [=] { row_kernel<4, false, true><<<R, nt>>>(x, r, nvec, svec); }});
      vs.push_back({"row4w", [=] { roww_kernel<4, kWLate><<<R, nt>>>(x, r, w, nvec, svec); }});
      vs.push_back({"row4we", [=] { roww_kernel<4, kWEarly><<<R, nt>>>(x, r, w, nvec, svec); }});
      vs.push_back({"row4wp", [=] { roww_kernel<4, kWPrefetch><<<R, nt>>>(x, r, w, nvec, svec); }});
      vs.push_back({"row4wpcs", [=] { roww_kernel<4, kWPrefetchCs><<<R, nt>>>(x, r, w, nvec, svec); }});
      auto lb = [&](auto kernel, int t, int b) {
        if (t != nt) return;
        int o = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o, kernel, nt, 0);
        cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, kernel);
        vs.push_back({"lb" + std::to_string(b) + "=" + std::to_string(o) + "x" + std::to_string(fa.numRegs) + "r" +
                      (fa.localSizeBytes ? "s" : ""), [=] { kernel<<<R, nt>>>(x, r, nvec, svec); }});
      };
      lb(rowlb_kernel<160, 7>, 160, 7); lb(rowlb_kernel<160, 8>, 160, 8);
      lb(rowlb_kernel<224, 5>, 224, 5); lb(rowlb_kernel<224, 6>, 224, 6);
      lb(rowlb_kernel<320, 4>, 320, 4); lb(rowlb_kernel<352, 3>, 352, 3); lb(rowlb_kernel<352, 4>, 352, 4);
      lb(rowlb_kernel<416, 3>, 416, 3); lb(rowlb_kernel<480, 3>, 480, 3);
      int occ = 0;
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, pipe_kernel<4>, nt, 0);
      for (int B = 1; B <= occ; ++B)
        vs.push_back({"pipe" + std::to_string(B), [=] { pipe_kernel<4><<<B * prop.multiProcessorCount, nt>>>(x, r, nvec, svec, R); }});
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, row_kernel<4, false>, nt, 0);
      const int wave = occ * prop.multiProcessorCount;
      printf("  (row4: %d threads, %d blocks an SM, a wave %d rows)\n", nt, occ, wave);
      if (R % 2 == 0)
        for (int T : {0, wave / 4, wave / 2, wave, 2 * wave, R}) {
          const int t = std::min(T, R) / 2 * 2, R0 = R - t;
          vs.push_back({T == 0 ? std::string("clus") : "tail" + std::to_string(t),
                        [=] { launch_clusters(tail_kernel<4>, R0 + 2 * t, nt, x, r, nvec, svec, R0); }});
        }
      time_variants(vs, flush, e0, e1, n, 8);
      if (cudaGetLastError() != cudaSuccess) { printf("launch error\n"); return 1; }
      continue;
    }
    if (st == d) vs.push_back({"flat", [=] { const int64_t m = (int64_t)R * nvec; swap_copy<<<(m + 255) / 256, 256>>>(x, r, m); }});
    vs.push_back({"layout", [=] { layout_kernel<<<dim3((nvec + 255) / 256, R), 256>>>(x, r, nvec, svec); }});
    vs.push_back({"row4", [=] { row_kernel<4, false><<<R, round32((nvec + 3) / 4)>>>(x, r, nvec, svec); }});
    vs.push_back({"row2", [=] { row_kernel<2, false><<<R, round32((nvec + 1) / 2)>>>(x, r, nvec, svec); }});
    vs.push_back({"shift4", [=] { row_kernel<4, true><<<R, round32((nvec + 7 + 3) / 4)>>>(x, r, nvec, svec); }});
    if (st == d) vs.push_back({"pair4", [=] { pair_kernel<4><<<(R + 1) / 2, std::min(1024, round32((2 * nvec + 7 + 3) / 4))>>>(x, r, nvec, R); }});
    if (st == d && 2 * nvec + 7 > 4 * 1024) vs.pop_back();  // a pair needs more than 1024 threads at 4 vectors
    if (st == d) vs.push_back({"pair8", [=] { pair_kernel<8><<<(R + 1) / 2, round32((2 * nvec + 7 + 7) / 8)>>>(x, r, nvec, R); }});
    time_variants(vs, flush, e0, e1, n, 7);
    if (cudaGetLastError() != cudaSuccess) { printf("launch error\n"); return 1; }
  }
  return 0;
}
