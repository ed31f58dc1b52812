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
// Timed as lib_ab times a launch (CUDA events around one launch, 256 MB L2 flush before each, three interleaved rounds).
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/rlc benchmarks/explore/row_lines_copy.cu
//   /tmp/rlc [N [ROWS [WIDTH:STRIDE,...]]]   e.g. /tmp/rlc 30 8192 16384:16384,16384:16392,16376:16376
#include "explore.cuh"

namespace {

constexpr int kLineVecs = 8;  // 16-byte vectors in a 128-byte line

// The block's sum of one int a thread (the kernels' stand-in for the row's sum of squares).
__device__ __forceinline__ int block_sum(int v) {
  __shared__ int part[32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
  __syncthreads();
  int s = 0;
  for (int w = 0; w < (int)blockDim.x / 32; ++w) s += part[w];
  return s;
}

// What a vector contributes to the sum, and the value stored: u itself unless the sum hits a value the data never
// gives (the compiler cannot drop the stores' dependence on every load).
__device__ __forceinline__ int bits(uint4 u) { return (int)(u.x ^ u.y ^ u.z ^ u.w) & 0xff; }
__device__ __forceinline__ uint4 mark(uint4 u, int s) { u.x ^= (s == -12345); return u; }

__global__ void flat_kernel(uint4* x, uint4* r, int64_t n) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < n) { const uint4 u = x[i], v = r[i]; x[i] = v; r[i] = u; }
}

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
template <int kVPT, bool kShift>
__global__ void row_kernel(uint4* x_, uint4* r_, int nvec, int64_t svec) {
  uint4* x = x_ + blockIdx.x * svec;
  uint4* r = r_ + blockIdx.x * svec;
  const int s = kShift ? (int)(reinterpret_cast<uintptr_t>(x) / 16 % kLineVecs) : 0;
  uint4 xv[kVPT], rv[kVPT];
  int acc = 0;
  load_slots<kVPT>(x, r, s, nvec, xv, rv);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < nvec) { acc += bits(xv[k]) + bits(rv[k]); r[i] = rv[k]; }  // the residual stored early, as the op
  }
  const int sum = block_sum(acc);
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = threadIdx.x + k * blockDim.x - s;
    if (i >= 0 && i < nvec) x[i] = mark(xv[k], sum);
  }
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
  char *xb, *rb;
  cudaMalloc(&xb, maxb); cudaMalloc(&rb, maxb);
  cudaMemset(xb, 0x3c, maxb); cudaMemset(rb, 0x3c, maxb);
  for (auto [d, st] : shapes) {
    if (d * 2 % 16 || st * 2 % 16) { printf("%d:%d: not 16-byte rows, skipped\n", d, st); continue; }
    uint4 *x = reinterpret_cast<uint4*>(xb), *r = reinterpret_cast<uint4*>(rb);
    const int nvec = d / 8;
    const int64_t svec = st / 8;
    printf("%dx%d stride %d (%d bytes a row past a line), %.1f MB moved\n", R, d, st, (int)((int64_t)st * 2 % 128),
           4.0 * R * d * 2 / 1e6);
    Variants vs;
    if (st == d) vs.push_back({"flat", [=] { const int64_t m = (int64_t)R * nvec; flat_kernel<<<(m + 255) / 256, 256>>>(x, r, m); }});
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
