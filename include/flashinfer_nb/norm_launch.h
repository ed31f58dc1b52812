// Host-side declarations of the norm launchers (no device code): the norm module's launcher TUs
// (csrc/norm.cpp, compiled by c++) see these; the definitions are in norm.cuh, instantiated per dtype and
// variant in their own nvcc TUs (gen_norm_module), which build in parallel.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace flashinfer_nb {

namespace norm_detail {

// Limits of every norm kernel (norm.cuh, norm_peeled.cuh)
constexpr int kPrefetchBlocks = 32;  // blocks that prefetch a late weight into L2 (see the kernels)
constexpr int kMaxBlock = 512;       // block-mode threads per row: 128 registers per thread stay available

struct NormParams {
  const void* input;  // rows x d, row stride in_stride (elements)
  void* residual;     // fused only: rows x d, row stride res_stride
  void* out;          // rows x d, row stride out_stride (fused: the input buffer)
  const void* weight;  // d, contiguous
  int64_t in_stride, res_stride, out_stride;
  int64_t rows;
  // rows in two levels (RMSNormHeadsLauncher only, norm_heads.cuh): groups of `heads` rows, row r of group g at
  // g * in_gstride + r * in_stride (out: out_gstride, out_stride); 0 for the kernels of norm.cuh
  int64_t heads, in_gstride, out_gstride;
  int d;
  float eps, weight_bias;
  float inv_d;  // 1 / d, set by RMSNormLauncher: the mean of squares is a multiply, not an IEEE divide, on the chain
  bool pdl;  // programmatic dependent launch (sm_90+ only: the binding checks the device)
  bool res_late;  // fused, one row a block: store the residual with the output, after the reduction (set by dispatch)
};

// Every row of the buffer at ptr (row stride `stride` elements of T) starts on a 128-byte line: the pointer and the
// stride. The dispatch's test for the kernels that map rows from their lines or read whole lines (norm.cuh,
// norm_peeled.cuh, norm_rounds.cuh).
template <typename T>
inline bool rows_on_lines(const void* ptr, int64_t stride) {
  return reinterpret_cast<uintptr_t>(ptr) % 128 == 0 && stride % (128 / static_cast<int64_t>(sizeof(T))) == 0;
}

}  // namespace norm_detail

// RMSNorm (kFused = false) or fused add + RMSNorm (kFused = true) on `stream`; defined in norm.cuh.
template <typename T, bool kFused>
cudaError_t RMSNormLauncher(norm_detail::NormParams p, int vpt_hint, cudaStream_t stream);

// RMSNorm over rows in two levels (p.heads > 0; the heads of a strided query slice); defined in norm_heads.cuh.
template <typename T>
cudaError_t RMSNormHeadsLauncher(norm_detail::NormParams p, cudaStream_t stream);

}  // namespace flashinfer_nb
