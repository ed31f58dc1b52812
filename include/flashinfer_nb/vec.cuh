// Small device helpers shared by the kernels: 16-byte vectors and float conversion.
// Framework-agnostic: no torch or TVM-FFI headers here.
#pragma once
// A TU that instantiates no bfloat16 kernel may define FLASHINFER_NB_NO_BF16 first: cuda_bf16.h then stays out
// (0.45-0.6 s of nvcc's front ends per TU; the fp16 and fp32 norm TUs, nbs/02_jit_core.ipynb).
#ifndef FLASHINFER_NB_NO_BF16
#include <cuda_bf16.h>
#endif
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>

namespace flashinfer_nb {

template <typename T>
__device__ __forceinline__ float to_float(T x);
template <>
__device__ __forceinline__ float to_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ float to_float<half>(half x) { return __half2float(x); }
// bf16 -> fp32 is exact: the 16 bits become the high half. Written as plain integer ops rather than
// __bfloat162float's inline asm, so the compiler may recompute it instead of holding fp32 copies in
// registers (measured: 52 -> 32 registers in the RMSNorm kernel, NOTES.md).
#ifndef FLASHINFER_NB_NO_BF16
template <>
__device__ __forceinline__ float to_float<nv_bfloat16>(nv_bfloat16 x) {
  return __uint_as_float(static_cast<unsigned>(__bfloat16_as_ushort(x)) << 16);
}
#endif

template <typename T>
__device__ __forceinline__ T from_float(float x);
template <>
__device__ __forceinline__ float from_float<float>(float x) { return x; }
template <>
__device__ __forceinline__ half from_float<half>(float x) { return __float2half_rn(x); }
#ifndef FLASHINFER_NB_NO_BF16
template <>
__device__ __forceinline__ nv_bfloat16 from_float<nv_bfloat16>(float x) {
  return __float2bfloat16_rn(x);
}
#endif

// Round two floats into dst[0], dst[1]: one paired conversion (cvt.rn.{bf16,f16}x2.f32) for 16-bit
// types, which also lets the compiler keep fewer registers live than two single conversions.
template <typename T>
__device__ __forceinline__ void from_float2(float a, float b, T* dst) {
  dst[0] = from_float<T>(a);
  dst[1] = from_float<T>(b);
}
template <>
__device__ __forceinline__ void from_float2<half>(float a, float b, half* dst) {
  *reinterpret_cast<half2*>(dst) = __floats2half2_rn(a, b);
}
#ifndef FLASHINFER_NB_NO_BF16
template <>
__device__ __forceinline__ void from_float2<nv_bfloat16>(float a, float b, nv_bfloat16* dst) {
  *reinterpret_cast<__nv_bfloat162*>(dst) = __floats2bfloat162_rn(a, b);
}
#endif

// N elements of T packed in 16 bytes, so one load or store is a single 128-bit transaction.
template <typename T>
struct alignas(16) Vec16 {
  static constexpr int kSize = 16 / sizeof(T);
  T data[kSize];
};

// Read-only, non-coherent 128-bit load: inputs are never written by the same kernel.
template <typename T>
__device__ __forceinline__ Vec16<T> load_vec16(const T* ptr) {
  uint4 raw = __ldg(reinterpret_cast<const uint4*>(ptr));
  return *reinterpret_cast<Vec16<T>*>(&raw);
}

// load_vec16 with a hint that L2 fetch the whole 256-byte sector group around it (sm_80+; a plain load before).
// For small, latency-bound launches: fewer DRAM round trips per warp (NOTES.md, scale v5).
template <typename T>
__device__ __forceinline__ Vec16<T> load_vec16_l2_256(const T* ptr) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint4 r;
  asm volatile("ld.global.nc.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
               : "l"(ptr));
  return *reinterpret_cast<Vec16<T>*>(&r);
#else
  return load_vec16(ptr);
#endif
}

template <typename T>
__device__ __forceinline__ void store_vec16(T* ptr, const Vec16<T>& v) {
  *reinterpret_cast<uint4*>(ptr) = *reinterpret_cast<const uint4*>(&v);
}

// kN elements of T in kN * sizeof(T) bytes (a power of two <= 16), moved as one transaction.
template <typename T, int kN>
struct alignas(sizeof(T) * kN) VecN {
  T data[kN];
};

// Elements j and j + 1 (j even) of a vector as floats. For bf16 each half of the 32-bit word takes one integer op
// (low: shift up; high: mask the low bits off), where to_float on the odd element alone costs a byte permute and a
// shift: 4 instructions fewer per 16-byte vector, on the decode chain between a load landing and the reduction.
template <typename T, int kN>
__device__ __forceinline__ float2 to_float2(const VecN<T, kN>& v, int j) {
  return make_float2(to_float(v.data[j]), to_float(v.data[j + 1]));
}
template <int kN>
__device__ __forceinline__ float2 to_float2(const VecN<half, kN>& v, int j) {
  return __half22float2(*reinterpret_cast<const half2*>(&v.data[j]));
}
#ifndef FLASHINFER_NB_NO_BF16
template <int kN>
__device__ __forceinline__ float2 to_float2(const VecN<nv_bfloat16, kN>& v, int j) {
  const unsigned u = *reinterpret_cast<const unsigned*>(&v.data[j]);
  return make_float2(__uint_as_float(u << 16), __uint_as_float(u & 0xffff0000u));
}
#endif

// v.data[j] = T(f(j)) for every j, rounding two at a time where the vector has pairs.
template <typename T, int kN, typename F>
__device__ __forceinline__ void convert_pairs(VecN<T, kN>& v, F f) {
  if constexpr (kN % 2 == 0) {
#pragma unroll
    for (int j = 0; j < kN; j += 2) from_float2<T>(f(j), f(j + 1), &v.data[j]);
  } else {
#pragma unroll
    for (int j = 0; j < kN; ++j) v.data[j] = from_float<T>(f(j));
  }
}

// x += y for 16-bit vectors, two elements an instruction, each sum rounded once to nearest (add.rn.{f16,bf16}x2; fma
// with 1.0 before sm_90 for bf16). The same bits as adding in fp32 and rounding: the exact sum of two 16-bit values
// either fits fp32's 24 bits or is dominated so far by the larger that neither rounding can move off it.
template <int kN>
__device__ __forceinline__ void add_pairs_rn(VecN<half, kN>& x, const VecN<half, kN>& y) {
#pragma unroll
  for (int j = 0; j < kN; j += 2)
    *reinterpret_cast<half2*>(&x.data[j]) =
        __hadd2(*reinterpret_cast<const half2*>(&x.data[j]), *reinterpret_cast<const half2*>(&y.data[j]));
}
#ifndef FLASHINFER_NB_NO_BF16
template <int kN>
__device__ __forceinline__ void add_pairs_rn(VecN<nv_bfloat16, kN>& x, const VecN<nv_bfloat16, kN>& y) {
#pragma unroll
  for (int j = 0; j < kN; j += 2)
    *reinterpret_cast<__nv_bfloat162*>(&x.data[j]) = __hadd2(*reinterpret_cast<const __nv_bfloat162*>(&x.data[j]),
                                                             *reinterpret_cast<const __nv_bfloat162*>(&y.data[j]));
}
#endif

// A warp's sum of `v`, in every lane: five xor shuffles (the step before sum_warp_partials).
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// The block's sum of per-warp sums (blocks of whole warps, up to kSlots = 16, 20 or 32 of them): lane 0 of
// each warp holds its warp's sum in `ss` (after the warp's shuffles). One barrier, then every thread adds all the slots
// itself (kSlots / 4 16-byte shared-memory reads issued together, a tree of adds; the slots of warps the block does not
// have are zeroed before the barrier by threads of warp 0). A second round of five dependent shuffles took ~150 cycles
// of the norm kernels' decode chain. Every thread adds in the same order, so every thread gets the same bits.
constexpr int kMaxBlockWarps = 16;
template <int kSlots = kMaxBlockWarps>
__device__ __forceinline__ float sum_warp_partials(float ss) {
  static_assert(kSlots == 16 || kSlots == 20 || kSlots == 32, "four, five or eight float4 reads below");
  __shared__ __align__(16) float partial[kSlots];
  const int nwarps = blockDim.x / 32;
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = ss;
  else if (threadIdx.x >= nwarps && threadIdx.x < kSlots) partial[threadIdx.x] = 0.f;
  __syncthreads();
  const float4* q = reinterpret_cast<const float4*>(partial);
  const float4 a = q[0], b = q[1], c = q[2], e = q[3];
  const float s16 = (((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w))) +
                    (((c.x + c.y) + (c.z + c.w)) + ((e.x + e.y) + (e.z + e.w)));
  if constexpr (kSlots == 16) {
    return s16;
  } else if constexpr (kSlots == 20) {
    const float4 f = q[4];
    return s16 + ((f.x + f.y) + (f.z + f.w));
  } else {
    const float4 f = q[4], g = q[5], h = q[6], k = q[7];
    return s16 + ((((f.x + f.y) + (f.z + f.w)) + ((g.x + g.y) + (g.z + g.w))) +
                  (((h.x + h.y) + (h.z + h.w)) + ((k.x + k.y) + (k.z + k.w))));
  }
}

// Programmatic dependent launch (PDL, sm_90+). A kernel launched with the programmatic-stream-serialization
// attribute (launch_kernel below, pdl = true) may start while the kernel before it in the stream still runs;
// pdl_wait() then blocks until that kernel has finished and its writes are visible, so every read of data
// another kernel may have produced, and every write, comes after it. pdl_launch_dependents() lets the next
// kernel's blocks be scheduled once every block of this one has called it (or exited): they start, and wait in
// their own pdl_wait(), while this one finishes. Both are no-ops when the launch had no such attribute, and
// emit nothing for the archs before sm_90 (the launchers never set the attribute there).
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// kernel<<<grid, block, 0, stream>>>(args...), through cudaLaunchKernelEx so that `pdl` can add the
// programmatic-stream-serialization attribute (only ever true on sm_90+: the bindings check the device).
template <typename... KArgs, typename... Args>
inline cudaError_t launch_kernel(void (*kernel)(KArgs...), dim3 grid, dim3 block, cudaStream_t stream, bool pdl,
                                 Args&&... args) {
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, std::forward<Args>(args)...);
}

// The slot of thread `lane`'s k-th vector (or chunk) in a block of `group` threads with kVPT a thread: lane + k * group.
// kShift maps the slots from the row's 128-byte line, `shift` slots before the row's first vector: the first `shift`
// threads' k = 0 slots (before the row) wrap to the block's last slots, group * kVPT - shift on: past the row's end
// where the block has the spare slots, else the row's last ones, which then start on a line too (the slots are whole
// lines from the row's first line). The norm kernels' line-aligned mapping (norm.cuh, norm_peeled.cuh).
template <int kVPT, bool kShift>
__device__ __forceinline__ int line_slot(int lane, int k, int group, int shift) {
  const int i = lane + k * group - shift;
  return kShift && k == 0 && i < 0 ? i + group * kVPT : i;
}

inline bool is_aligned(const void* ptr, int bytes) { return reinterpret_cast<uintptr_t>(ptr) % bytes == 0; }

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Multiprocessor count of the current device, queried once per device.
inline cudaError_t get_sm_count(int* out) {
  constexpr int kMaxDevices = 64;
  static int cache[kMaxDevices] = {0};
  int dev = 0;
  cudaError_t st = cudaGetDevice(&dev);
  if (st != cudaSuccess) return st;
  if (dev < kMaxDevices && cache[dev] > 0) {
    *out = cache[dev];
    return cudaSuccess;
  }
  st = cudaDeviceGetAttribute(out, cudaDevAttrMultiProcessorCount, dev);
  if (st == cudaSuccess && dev < kMaxDevices) cache[dev] = *out;
  return st;
}

// Resident blocks an SM of the kernel kKernel at `threads` a block (whole warps, up to 1024), as the CUDA runtime's
// occupancy calculator gives them (registers, shared memory, the block and warp limits), cached per device and block
// size; 0 where they cannot be read (a rule that asks keeps its default then). Session 56: the pieces kernel's 2 or 4
// chunks a thread turn on whether the rows fit one wave (norm_peeled.cuh).
template <auto kKernel>
inline int resident_blocks(int threads) {
  constexpr int kMaxDevices = 64, kMaxWarps = 32;
  static std::atomic<int> cache[kMaxDevices][kMaxWarps + 1];  // zero: not read yet
  int dev = 0;
  if (threads < 32 || threads % 32 != 0 || threads > 32 * kMaxWarps || cudaGetDevice(&dev) != cudaSuccess) return 0;
  std::atomic<int>* slot = dev < kMaxDevices ? &cache[dev][threads / 32] : nullptr;
  if (slot != nullptr) {
    const int n = slot->load(std::memory_order_relaxed);
    if (n > 0) return n;
  }
  int n = 0;
  const cudaError_t st = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kKernel, threads, 0);
  if (st != cudaSuccess) {
    if (cudaPeekAtLastError() == st) (void)cudaGetLastError();  // ours only: an earlier launch's error stays
    return 0;
  }
  if (slot != nullptr && n > 0) slot->store(n, std::memory_order_relaxed);
  return n;
}

}  // namespace flashinfer_nb
