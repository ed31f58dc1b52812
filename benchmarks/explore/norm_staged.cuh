// Fused add + RMSNorm for wide rows at prefill, rows staged in shared memory by the copy engine (sm_90+).
//
// Experiment (issue 19, session 35), not in the library. A persistent grid (a block or two an SM) walks the rows;
// each block keeps kStages rows of input and residual in shared memory, filled by one-instruction bulk copies
// (cp.async.bulk, completion counted on an mbarrier), so the next rows' loads are in flight while this row is
// reduced and stored. A thread's vectors, its sums and the block's reduction are those of rmsnorm_rows in block mode
// with the same block, so the bits are the same (lib_ab: every output identical).
//
// Result (H200, NVIDIA_H200_lib_ab_staged_bulk_s35.txt): 1.8-5.7 % slower than the rule's register kernel at
// 4000-65536 rows x 4096-16384, with 3 rows staged or 2. The shared memory it needs leaves the SM a small L1, and the
// rule's kernel alone loses 3-7 % when given the least L1 (NVIDIA_H200_lib_ab_carveout_s35.txt).
//
// To time it again: copy this file into include/flashinfer_nb/, include it from norm.cuh, and in dispatch, just
// before `auto go`, add (then build lib_ab trees with -DFNB_STAGED=3 -DFNB_STAGED_BPS=2 -DFNB_STAGED_MIN=256
// -DFNB_STAGED_ROWS=4):
//   #ifdef FNB_STAGED
//     if constexpr (kFused && kWidest && sizeof(T) == 2) {
//       if (past && !mid && vpt == 4 && nvec >= FNB_STAGED_MIN && p.rows > FNB_STAGED_ROWS * sm64)
//         return launch_staged<T, 4, FNB_STAGED>(p, block, FNB_STAGED_BPS, sms, stream);
//     }
//   #endif
#pragma once
#include "norm_launch.h"
#include "vec.cuh"

namespace flashinfer_nb {
namespace norm_detail {

__device__ __forceinline__ uint32_t smem_addr(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void mbar_init(uint64_t* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_expect_tx(uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint64_t* bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);
}
// bytes (a multiple of 16, both addresses 16-byte aligned) from global to this block's shared memory.
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, uint64_t* bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   smem_addr(dst)),
               "l"(src), "r"(bytes), "r"(smem_addr(bar))
               : "memory");
}
#endif

template <typename T, int kVPT, int kStages>
__global__ void __launch_bounds__(512) FusedStagedKernel(const NormParams p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int kVec = 16 / sizeof(T);
  using V = VecN<T, kVec>;
  extern __shared__ __align__(128) unsigned char stage_mem[];
  __shared__ __align__(8) uint64_t full[kStages];
  constexpr int kSlots = 16;  // 512 threads at most
  __shared__ __align__(16) float partial[2][kSlots];
  const int group = blockDim.x, lane = threadIdx.x;
  const int nvec = p.d / kVec;
  const unsigned row_bytes = static_cast<unsigned>(p.d) * sizeof(T);
  const int64_t stride = gridDim.x;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) mbar_init(&full[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  pdl_wait();
  auto issue = [&](int s, int64_t row) {
    unsigned char* dst = stage_mem + static_cast<size_t>(s) * 2 * row_bytes;
    mbar_expect_tx(&full[s], 2 * row_bytes);
    bulk_load(dst, static_cast<const T*>(p.input) + row * p.in_stride, row_bytes, &full[s]);
    bulk_load(dst + row_bytes, static_cast<const T*>(p.residual) + row * p.res_stride, row_bytes, &full[s]);
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      const int64_t row = blockIdx.x + s * stride;
      if (row < p.rows) issue(s, row);
    }
  }
  pdl_launch_dependents();
  const V* w = reinterpret_cast<const V*>(p.weight);
  V wv[kVPT];
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = lane + k * group;
    if (i < nvec) wv[k] = w[i];
  }
  const int nwarps = blockDim.x / 32;
  int it = 0;
  for (int64_t row = blockIdx.x; row < p.rows; row += stride, ++it) {
    const int s = it % kStages;
    mbar_wait(&full[s], (it / kStages) & 1);
    const V* sin = reinterpret_cast<const V*>(stage_mem + static_cast<size_t>(s) * 2 * row_bytes);
    const V* sres = sin + nvec;
    V* res = reinterpret_cast<V*>(static_cast<T*>(p.residual) + row * p.res_stride);
    V xv[kVPT];
    float ss = 0.f, ss_odd = 0.f;
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = lane + k * group;
      if (i < nvec) {
        xv[k] = sin[i];
        const V r = sres[i];
        add_pairs_rn(xv[k], r);
        res[i] = xv[k];
#pragma unroll
        for (int j = 0; j < kVec; j += 2) {
          const float2 v = to_float2(xv[k], j);
          ss += v.x * v.x;
          ss_odd += v.y * v.y;
        }
      }
    }
    ss += ss_odd;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffffu, ss, o);
    float* part = partial[it & 1];
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = ss;
    else if (threadIdx.x >= nwarps && threadIdx.x < kSlots) part[threadIdx.x] = 0.f;
    __syncthreads();  // every thread has read stage s: refill it with the row kStages ahead
    if (threadIdx.x == 0) {
      const int64_t next = row + kStages * stride;
      if (next < p.rows) issue(s, next);
    }
    const float4* q = reinterpret_cast<const float4*>(part);
    const float4 a = q[0], b = q[1], c = q[2], e = q[3];
    ss = (((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w))) +
         (((c.x + c.y) + (c.z + c.w)) + ((e.x + e.y) + (e.z + e.w)));
    const float rstd = rsqrtf(ss * p.inv_d + p.eps);
    V* out = reinterpret_cast<V*>(static_cast<T*>(p.out) + row * p.out_stride);
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = lane + k * group;
      if (i < nvec) {
        V o;
#pragma unroll
        for (int j = 0; j < kVec; j += 2) {
          const float2 x = to_float2(xv[k], j), g = to_float2(wv[k], j);
          from_float2<T>(x.x * rstd * (g.x + p.weight_bias), x.y * rstd * (g.y + p.weight_bias), &o.data[j]);
        }
        out[i] = o;
      }
    }
  }
#endif
}

// Launch over min(rows, blocks_per_sm x SMs) blocks of `block` threads; kStages rows of 2 x d x sizeof(T) bytes each
// in dynamic shared memory.
template <typename T, int kVPT, int kStages>
cudaError_t launch_staged(const NormParams& p, int block, int blocks_per_sm, int sms, cudaStream_t stream) {
  auto kernel = FusedStagedKernel<T, kVPT, kStages>;
  const size_t smem = static_cast<size_t>(kStages) * 2 * p.d * sizeof(T);
  cudaError_t st = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
  if (st != cudaSuccess) return st;
  int fit = 0;
  st = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block, smem);
  if (st != cudaSuccess) return st;
  if (fit < 1) return cudaErrorInvalidValue;
  const int64_t grid = std::min<int64_t>(p.rows, static_cast<int64_t>(std::min(fit, blocks_per_sm)) * sms);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(static_cast<unsigned>(grid));
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = p.pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, p);
}

}  // namespace norm_detail
}  // namespace flashinfer_nb
