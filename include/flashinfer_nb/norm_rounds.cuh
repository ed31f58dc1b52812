// The fused op's widest 16-byte-aligned rows (12288-15360 wide) past the mid range: the rounds kernel. Part of
// norm.cuh (it includes this file); the same contract.
//
// The row is read in two rounds of one 16-byte vector a thread (blocks of ceil(d / 16) threads, whole warps), the
// second round's loads issued after the first round's residual stores, the sum x + residual (rounded to T) parked in
// shared memory for the normalise pass, which reads the weight. 32 registers: two blocks of 768-960 threads an SM.
//
// Why (session 45, H200, lib_ab with FlashInfer 0.7.2's kernel in the same binary; NVIDIA_H200_lib_ab_rounds*_s45.txt):
// the vector kernel (4 vectors a thread in registers, 54 registers, two blocks of 384-480 threads an SM) ran these rows
// at 97.6-98.2 % of the copy, and FlashInfer's (1024-thread blocks, two rounds through shared memory as fp32) 0.2-1.2 %
// faster at 14336-15360 x 16384+ rows: the one place left under 1.00x (sessions 34-44). Against the vector kernel at
// 4000-65536 rows: both rounds' loads issued together +0.1 to +0.5 %; round by round (this kernel) 12288 +0.5 to +2.0 %,
// 12800 +0.7 to +1.1 %, 13312 +0.4 to +1.6 %, 14336 +0.2 to +0.8 %, 14848 +0.2 to +0.7 %, 15360 +0.1 to +0.6 %. Under 4000
// rows it loses as often as it wins (-3.4 to +4.2 % at 600-2000). On the H100, already at its copy ceiling there, it is
// -0.4 to -0.2 % at 4000 rows and -0.2 to +0.1 % at 16384-32768 (NVIDIA_H100_lib_ab_rounds_s45.txt), so it starts at
// 60 x the SMs (7920 rows on 132), where the H200 gains +0.3 to +1.0 % at 8192 rows. Not taken: three rounds
// (at 15360 0.3-0.4 % behind two, at 12288 -1.1 % against the vector kernel), four (-1.3 % at 16384), the 16384-wide rows
// (-0.7 %: the vector kernel's 512-thread blocks already hold two rounds' worth), 1024-thread blocks as FlashInfer's
// (-0.3 to +0.8 %), the sum kept as fp32 as FlashInfer does (+-0.5 %), the most shared memory and least L1 (carveout 100:
// -2.0 to -2.8 %, as session 35 found for the vector kernel). FlashInfer's kernel stays 0.2-0.5 % ahead at 14848-15360 x
// 16384+ rows in some runs (both at 98 % of the copy).
#pragma once
#include "norm_launch.h"
#include "norm_peeled.cuh"
#include "vec.cuh"

namespace flashinfer_nb {

namespace norm_detail {

constexpr int kRoundsMaxVec = 2048;  // vectors of 8 a row (d <= 16384): the shared-memory row
constexpr int kRoundsFromSms = 60;    // rows from 60 x the SM count take it (norm.cuh's dispatch)

// Every row of x, the residual and out starts on a 128-byte line (the pointers and the row strides): the rows the
// rounds kernel is for (norm.cuh's dispatch; session 50: 16 bytes off a line it ran 7-11 % behind the vector kernel).
template <typename T>
inline bool rounds_lines_ok(const NormParams& p) {
  return rows_on_lines<T>(p.input, p.in_stride) && rows_on_lines<T>(p.residual, p.res_stride) &&
         rows_on_lines<T>(p.out, p.out_stride);
}

template <typename T>
__global__ void __launch_bounds__(1024) FusedRoundsKernel(const NormParams p) {
  static_assert(sizeof(T) == 2, "16-bit types");
  constexpr int kRounds = 2;
  using V = VecN<T, 8>;
  __shared__ __align__(16) uint4 xs[kRoundsMaxVec];
  const int nvec = p.d / 8, tid = threadIdx.x, nt = blockDim.x;
  const int64_t row = blockIdx.x;
  const uint4* in = reinterpret_cast<const uint4*>(static_cast<const T*>(p.input) + row * p.in_stride);
  uint4* res = reinterpret_cast<uint4*>(static_cast<T*>(p.residual) + row * p.res_stride);
  uint4* out = reinterpret_cast<uint4*>(static_cast<T*>(p.out) + row * p.out_stride);
  const uint4* w = static_cast<const uint4*>(p.weight);
  pdl_wait();
  float ss = 0.f, ss_odd = 0.f;
#pragma unroll
  for (int k = 0; k < kRounds; ++k) {
    const int i = tid + k * nt;
    if (k + 1 < kRounds || i < nvec) {  // every round but the last is whole (dispatch)
      V x, r;
      *reinterpret_cast<uint4*>(&x) = in[i];
      *reinterpret_cast<uint4*>(&r) = res[i];
      add_pairs_rn(x, r);  // residual += x, rounded to T
      res[i] = *reinterpret_cast<const uint4*>(&x);
      xs[i] = *reinterpret_cast<const uint4*>(&x);
#pragma unroll
      for (int j = 0; j < 8; j += 2) add_square_pair(x, j, ss, ss_odd);
    }
    asm volatile("" ::: "memory");  // the next round's loads after this round's stores
  }
  pdl_launch_dependents();
  ss += ss_odd;
  ss = warp_sum(ss);
  ss = sum_warp_partials<32>(ss);  // up to 32 warps: 1024 threads
  const float rstd = rsqrtf(ss * p.inv_d + p.eps);
#pragma unroll
  for (int k = 0; k < kRounds; ++k) {
    const int i = tid + k * nt;
    if (k + 1 < kRounds || i < nvec) {
      const uint4 xu = xs[i], wu = __ldg(w + i);
      const V& x = *reinterpret_cast<const V*>(&xu);
      const V& g = *reinterpret_cast<const V*>(&wu);
      V o;
#pragma unroll
      for (int j = 0; j < 8; j += 2) normalise_pair<T>(x, g, j, rstd, p.weight_bias, o);
      out[i] = *reinterpret_cast<const uint4*>(&o);
    }
  }
}

// The launch: one row a block of ceil(d / 16) threads (whole warps), the first round whole. Rows of 16-bit elements,
// x / residual / out / weight on 16-byte boundaries, d a multiple of 8 (norm.cuh's kVec = 8), d / 8 <= 2 x 1024 and
// more than the block: anything else cudaErrorInvalidValue.
template <typename T>
cudaError_t dispatch_rounds(const NormParams& p, cudaStream_t stream) {
  const int nvec = p.d / 8;
  const int threads = static_cast<int>(ceil_div(ceil_div(nvec, 2), 32) * 32);
  if (sizeof(T) != 2 || p.d % 8 != 0 || nvec > kRoundsMaxVec || threads > 1024 || threads >= nvec)
    return cudaErrorInvalidValue;
  return launch_kernel(FusedRoundsKernel<T>, dim3(static_cast<unsigned>(p.rows)), dim3(static_cast<unsigned>(threads)),
                       stream, p.pdl, p);
}

}  // namespace norm_detail

}  // namespace flashinfer_nb
