// RMSNorm and fused add + RMSNorm for 16-bit rows that not even a 4-byte vector fits: odd widths (d = 4097, 11875),
// and rows an odd number of elements off 4-byte alignment (views such as x[:, 1:], with out at the same offset). Part of
// norm.cuh (it includes this file); the same contract.
//
// Such rows used to take single-element vectors (norm.cuh's kVec = 1): 8 loads and stores where one would do, and
// up to 32 elements a thread to fit the block; the fused kernel with 32 kept a stack frame (816 bytes in bf16). H200,
// session 37 (NVIDIA_H200_issue19_odd_widths_before_s37.txt): 194 x 11875 bf16 fused 65.2 us against FlashInfer's 16.8
// (0.26x), rmsnorm 1 x 11875 15.5 against 9.4. With this kernel: NVIDIA_H{200,100}_issue19_odd_widths*_s37.txt.
//
// Here the row is read in the 16-byte vectors of memory that hold it ("chunks"), not in vectors that start at its
// first element: with the row's first element a elements into its chunk (a = 0 .. 7), chunk i holds the row's elements
// i * 8 - a ... i * 8 - a + 7, and the row spans ceil((d + a) / 8) chunks. Only the first and the last can be partial;
// those two are read and written element by element (the lanes outside the row hold 0, which adds nothing to the sum of
// squares), every other one as one 16-byte load and store. x, the residual and out must sit at the same a in every
// row (their offsets and row strides equal modulo 16 bytes: dispatch checks, and otherwise keeps kVec = 1).
//
// The weight is 16-byte aligned and starts at element 0, so for a != 0 the 8 weights of chunk i straddle two of its
// own chunks: i - 1 (its last a elements) and i (its first 8 - a). Both are read (the second read of every weight
// chunk hits L1) and the 8 elements taken out with byte permutes, the shift uniform over the block (one row a block).
#pragma once
#include <type_traits>

#include "norm_launch.h"
#include "vec.cuh"

namespace flashinfer_nb {

namespace norm_detail {

// The kernels' shared steps (these two and norm_rounds.cuh's): the elements (j, j + 1) of a loaded vector x into the
// sums of squares, even and odd elements apart (two chains of FMAs after the load, not one) ...
template <typename VX>
__device__ __forceinline__ void add_square_pair(const VX& x, int j, float& ss, float& ss_odd) {
  const float2 v = to_float2(x, j);
  ss += v.x * v.x;
  ss_odd += v.y * v.y;
}
// ... and the same pair normalised into o: x * rstd * (g + bias), rounded to T.
template <typename T, typename VX, typename VG, typename VO>
__device__ __forceinline__ void normalise_pair(const VX& x, const VG& g, int j, float rstd, float bias, VO& o) {
  const float2 xf = to_float2(x, j), gf = to_float2(g, j);
  from_float2<T>(xf.x * rstd * (gf.x + bias), xf.y * rstd * (gf.y + bias), &o.data[j]);
}

// A 16-byte vector of 16-bit elements seen as four 32-bit words.
union Chunk16 {
  uint4 u;
  unsigned w[4];
};

// Elements [lo, hi) of the chunk at p (16-byte aligned), the rest 0. Element by element: the chunk may begin before
// the buffer or end past it.
template <typename T>
__device__ __forceinline__ uint4 load_chunk_part(const T* p, int lo, int hi) {
  static_assert(sizeof(T) == 2, "16-bit types");
  unsigned short e[8];
  const unsigned short* q = reinterpret_cast<const unsigned short*>(p);
#pragma unroll
  for (int j = 0; j < 8; ++j) e[j] = j >= lo && j < hi ? q[j] : static_cast<unsigned short>(0);
  return make_uint4(e[0] | (e[1] << 16), e[2] | (e[3] << 16), e[4] | (e[5] << 16), e[6] | (e[7] << 16));
}
template <typename T>
__device__ __forceinline__ void store_chunk_part(T* p, const uint4& v, int lo, int hi) {
  unsigned short* q = reinterpret_cast<unsigned short*>(p);
  const unsigned w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int j = 0; j < 8; ++j)
    if (j >= lo && j < hi) q[j] = static_cast<unsigned short>(w[j / 2] >> (16 * (j % 2)));
}

// Elements o ... o + 7 of the 16 in (lo, hi), o = 1 ... 7 (a compile-time shift: the caller switches on it once).
template <int kO>
__device__ __forceinline__ uint4 take8(const Chunk16& lo, const Chunk16& hi) {
  const unsigned c[8] = {lo.w[0], lo.w[1], lo.w[2], lo.w[3], hi.w[0], hi.w[1], hi.w[2], hi.w[3]};
  unsigned r[4];
#pragma unroll
  for (int m = 0; m < 4; ++m) {
    constexpr int q0 = kO / 2;
    if constexpr (kO % 2 == 0) r[m] = c[q0 + m];
    else r[m] = __byte_perm(c[q0 + m], c[q0 + m + 1], 0x5432);  // high half of one word, low half of the next
  }
  return make_uint4(r[0], r[1], r[2], r[3]);
}

// kHold (the early weight, 2+ chunks a thread): the weight chunks are held as loaded and the weights taken out after
// the reduction. Taken out in the load loop, each chunk's byte permutes wait for its weights before the next chunk's
// loads issue: kVPT round trips in a row. Holding costs 8 registers a chunk (dispatch).
// The fused kernel's late weight with 4 chunks a thread takes blocks of up to 17 warps (kPeelWide): rows of 2049-2176
// chunks (16-bit d 16377-17400) then need not 8 chunks a thread (111 registers, 64-67 % of the copy). H200, lib_ab,
// 1-32768 rows x 16377-16383: 21-55 % faster (8192 x 16383 bf16 377.8 -> 271.3 us; NVIDIA_H200_lib_ab_peeled_wide_s37.txt).
// Not rmsnorm: its 8-chunk kernel holds 64 registers, and 4 in 544 threads was 3-9 % slower from 2000 rows (the bound
// and the fifth slot also cost its 4-chunk kernel 1-2 % at 12001-16375).
constexpr int kPeelWide = 544;
// kShift: the chunks taken from the 128-byte line that holds the row's first chunk (norm.cuh's kShift): slot
// lane + k * group takes chunk slot - s, s = the first chunk's 16-byte steps past its line, and the first s slots' first
// chunks wrap to the block's last slots (group * kVPT - s on: past the row, or its last chunks, on a line too).
// The kernels below wrap this body.
template <typename T, int kVPT, bool kFused, bool kEarly, bool kHold, bool kShift>
__device__ __forceinline__ void peeled_rows(const NormParams& p) {
  static_assert(sizeof(T) == 2, "16-bit types");
  static_assert(!kHold || (kEarly && kVPT >= 2), "kHold: the early weight, 2+ chunks a thread");
  static_assert(!kShift || !kEarly, "kShift: the late weight");
  using V = VecN<T, 8>;
  const int lane = threadIdx.x, group = blockDim.x;
  const int64_t row = blockIdx.x;
  const int d = p.d;
  const T* xrow = static_cast<const T*>(p.input) + row * p.in_stride;
  const int a = static_cast<int>(reinterpret_cast<uintptr_t>(xrow) % 16 / sizeof(T));
  const int nch = (d + a + 7) / 8;
  const uint4* in = reinterpret_cast<const uint4*>(xrow - a);
  uint4* res = reinterpret_cast<uint4*>(static_cast<T*>(p.residual) + row * p.res_stride - a);
  uint4* out = reinterpret_cast<uint4*>(static_cast<T*>(p.out) + row * p.out_stride - a);
  const uint4* w = static_cast<const uint4*>(p.weight);
  const int s = kShift ? static_cast<int>(reinterpret_cast<uintptr_t>(in) % 128 / 16) : 0;
  auto index = [&](int k) { return line_slot<kVPT, kShift>(lane, k, group, s); };  // the chunk of slot lane + k * group
  // the row's elements in chunk i: [lo, hi)
  auto lo_of = [a](int i) { return i == 0 ? a : 0; };
  auto hi_of = [a, d](int i) { return min(d + a - 8 * i, 8); };
  auto whole = [&](int i) { return (i > 0 || a == 0) && 8 * (i + 1) - a <= d; };
  // weight chunk c, elements past d as 0 (c >= 0)
  auto wchunk = [&](int c) -> Chunk16 {
    Chunk16 r;
    if (8 * (c + 1) <= d) r.u = __ldg(w + c);
    else r.u = load_chunk_part(reinterpret_cast<const T*>(w + c), 0, d - 8 * c);
    return r;
  };
  // the 8 weights of the row's chunk i: the weight chunks that hold them (raw_w), then taken out (place)
  auto raw_w = [&](int i, Chunk16& lo, Chunk16& hi) {
    if (a == 0) {
      lo = wchunk(i);
      hi.u = make_uint4(0, 0, 0, 0);
    } else {
      lo.u = i > 0 ? wchunk(i - 1).u : make_uint4(0, 0, 0, 0);
      hi.u = 8 * i < d ? wchunk(i).u : make_uint4(0, 0, 0, 0);
    }
  };
  auto place = [&](const Chunk16& lo, const Chunk16& hi) -> uint4 {
    switch (8 - a) {  // the same for every thread of the block
      case 1: return take8<1>(lo, hi);
      case 2: return take8<2>(lo, hi);
      case 3: return take8<3>(lo, hi);
      case 4: return take8<4>(lo, hi);
      case 5: return take8<5>(lo, hi);
      case 6: return take8<6>(lo, hi);
      case 7: return take8<7>(lo, hi);
      default: return lo.u;
    }
  };
  auto weights = [&](int i) -> uint4 {
    Chunk16 lo, hi;
    raw_w(i, lo, hi);
    return place(lo, hi);
  };
  if (!kEarly && blockIdx.x < kPrefetchBlocks) {  // the late weight: the first blocks prefetch it into L2 (norm.cuh)
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int i = lane + k * group;  // every weight chunk, whatever the mapping
      if (8 * i < d) asm volatile("prefetch.global.L2 [%0];" ::"l"(w + i));
    }
  }
  pdl_wait();
  uint4 xv[kVPT], rv[kFused ? kVPT : 1], wv[kEarly && !kHold ? kVPT : 1];
  Chunk16 wl[kHold ? kVPT : 1], wh[kHold ? kVPT : 1];
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    if (i < nch) {
      if (whole(i)) {
        xv[k] = in[i];
        if constexpr (kFused) rv[k] = res[i];
      } else {
        xv[k] = load_chunk_part(reinterpret_cast<const T*>(in + i), lo_of(i), hi_of(i));
        if constexpr (kFused) rv[k] = load_chunk_part(reinterpret_cast<const T*>(res + i), lo_of(i), hi_of(i));
      }
      if constexpr (kHold) raw_w(i, wl[k], wh[k]);
      else if constexpr (kEarly) wv[k] = weights(i);
    }
  }
  pdl_launch_dependents();

  float ss = 0.f, ss_odd = 0.f;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    if (i < nch) {
      V& x = *reinterpret_cast<V*>(&xv[k]);
      if constexpr (kFused) {
        add_pairs_rn(x, *reinterpret_cast<const V*>(&rv[k]));  // residual += x, rounded to T (0 outside the row)
        if (!p.res_late) {
          if (whole(i)) res[i] = xv[k];
          else store_chunk_part(reinterpret_cast<T*>(res + i), xv[k], lo_of(i), hi_of(i));
        }
      }
#pragma unroll
      for (int j = 0; j < 8; j += 2) add_square_pair(x, j, ss, ss_odd);
    }
  }
  ss += ss_odd;
  ss = warp_sum(ss);
  ss = sum_warp_partials<kFused && kVPT == 4 && !kEarly ? 20 : kMaxBlockWarps>(ss);  // 17 warps: 5 float4 slots
  const float rstd = rsqrtf(ss * p.inv_d + p.eps);

#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int i = index(k);
    if (i < nch) {
      uint4 wu;
      if constexpr (kHold) wu = place(wl[k], wh[k]);
      else if constexpr (kEarly) wu = wv[k];
      else wu = weights(i);
      const V& x = *reinterpret_cast<const V*>(&xv[k]);
      const V& g = *reinterpret_cast<const V*>(&wu);
      V o;
#pragma unroll
      for (int j = 0; j < 8; j += 2) normalise_pair<T>(x, g, j, rstd, p.weight_bias, o);
      const uint4 ou = *reinterpret_cast<const uint4*>(&o);
      if (whole(i)) {
        if (kFused && p.res_late) res[i] = xv[k];
        out[i] = ou;
      } else {
        if (kFused && p.res_late) store_chunk_part(reinterpret_cast<T*>(res + i), xv[k], lo_of(i), hi_of(i));
        store_chunk_part(reinterpret_cast<T*>(out + i), ou, lo_of(i), hi_of(i));
      }
    }
  }
}
template <typename T, int kVPT, bool kFused, bool kEarly, bool kHold, bool kShift = false>
__global__ void __launch_bounds__(kFused && kVPT == 4 && !kEarly ? kPeelWide : kMaxBlock) RMSNormPeeledKernel(const NormParams p) {
  peeled_rows<T, kVPT, kFused, kEarly, kHold, kShift>(p);
}

// The fused op's 16-bit rows on 4-byte but not 16-byte boundaries past decode (a width a multiple of 2 or 4 but not 8,
// or a view off a 16-byte boundary; session 43), and rmsnorm's (kFused = false, no residual; session 44). The row's
// first element a = 0, 2, 4 or 6 elements into its chunk. The row is a head piece (its first (8 - a) % 8 elements), m
// whole chunks, and a tail piece (the last (d - head) % 8):
// - Every whole chunk is one 16-byte load and store, with no test of where it falls (kFit: every thread's 4 chunks in
//   the row, m = 4 x blockDim for every row) or only `slot < m`. The blocks need ceil(m / 4) threads, not the peeled
//   kernel's ceil((m + 2) / 4) (4100: 128, where its partial chunks made 160), and no element-by-element path sits in
//   the chunk loop.
// - The pieces (0-6 elements each) are words of two elements, one a thread, taken by the block's last threads
//   alongside their chunks, the word's weight read with it. (First version: the last thread took every word, their
//   weights after its chunks' -- two more round trips on the last warp's chain, which the block waits for: 9220-16382
//   0.4-0.5 % slower than the peeled kernel at 16384-32768 rows, 2050 -1.6 % at 8192.)
// - The slots are line-aligned: slot f = lane + k x blockDim takes chunk f - s, s = the first whole chunk's 16-byte steps
//   past its 128-byte line, and the first s slots the row's last s chunks, so every warp's 512 bytes but one cover 4
//   lines, not 5 (the rows of 4100 start 8 bytes further along a line each). At 8192 rows the same rows at a
//   128-byte-aligned stride had run 0.8-2.2 % faster (NVIDIA_H200_row_alignment_pieces_s43.txt); with the slots, H200,
//   lib_ab, both dtypes: +0.5 to +2.9 % over the unaligned kernel at 8192-32768 rows x 2050-16382.
// - The chunks' weights are read late (after the reduction; the first blocks prefetch them into L2): chunk c's 8 start
//   head + 8c elements in, read as 16-, 8- or 4-byte loads as that offset allows (uniform over the block), never past
//   the weight's end.
// Against the peeled kernel (H200, lib_ab, NVIDIA_H200_lib_ab_pieces_s43.txt): +0.5 to +21 % at 600-32768 rows x
// 2050-16382, none slower; 8192 x 4100 bf16 72.5 -> 70.1 us, 8192 x 14340 238.4 -> 234.8. The sums split differently,
// so a few outputs in 10^5 round the other way (an ulp). rmsnorm: see its rule in norm.cuh's dispatch.
// kOdd (session 53; rmsnorm's too since session 54, see dispatch_peeled): the fused op's rows on 2-byte boundaries
// only (odd widths, views an element off), which the peeled kernel's 4 chunks a thread with the weight late took past
// the one-wave rows. The head is 0-7 elements, the pieces single elements (one a thread, up to 14, in the word's low
// half with the high half 0), and an odd head's chunk weights are the two weight chunks that hold them, taken out with
// byte permutes (take8) as the peeled kernel does.
// Why: the peeled kernel tests every chunk for the row's ends and carries the element-by-element path for them in its
// chunk loop, so its warps executed 703 instructions each against the vector kernel's 421 at the 16-byte width beside
// (8192 x 9793 and 9792 bf16, Nsight Compute, NVIDIA_H200_ncu_odd_source_s53.txt) and waited twice as long at the
// barrier; the odd width cost 1.5-4.8 us over its 16-byte neighbour at 8192 rows (NVIDIA_H200_lib_ab_odd_vs_even_s53.txt).
// With the row's ends treated as whole (a bound, wrong at the ends) it ran 1.4-2.9 us faster; full 16-byte loads of the
// end chunks, masked, alone gained nothing (NVIDIA_H200_lib_ab_peeled_{bound,edges}_s53.txt). lib_ab, both dtypes,
// 64-17618 rows x 2041-16383 odd (NVIDIA_H{200,100}_lib_ab_odd_pieces_final_s53.txt): from 600 rows H200 +0.5 to +14 %
// (8192 x 9793 bf16 164.0 -> 162.2 us, 12785 214.9 -> 210.8), H100 +0.2 to +12 %; 16383 at 8192-17618 rows -0.4 to
// 0.0 %, at 64-200 rows (its 2049-chunk rows take the late weight at decode too) +3.6 to +12 %. A few outputs in 10^5
// an ulp off the peeled kernel's (the sums split differently).
constexpr int kWarpRowsMaxRows = kMaxBlock / 64;  // rows a block of the pieces kernel's two-warp rows
template <bool kOdd, typename W, typename T>
__device__ __forceinline__ W load_piece(const T* q) {
  W w;
  if constexpr (kOdd) *reinterpret_cast<unsigned*>(&w) = *reinterpret_cast<const unsigned short*>(q);
  else w = *reinterpret_cast<const W*>(q);
  return w;
}
template <bool kOdd, typename W, typename T>
__device__ __forceinline__ void store_piece(T* q, const W& w) {
  if constexpr (kOdd) *reinterpret_cast<unsigned short*>(q) = static_cast<unsigned short>(*reinterpret_cast<const unsigned*>(&w));
  else *reinterpret_cast<W*>(q) = w;
}
// kWarps > 0: kWarps (1 or 2) warps a row, blockDim.y rows a block (blockDim.x = 32 kWarps). One warp's sum is its own
// (RMSNormPiecesWarpRowsKernel: a warp past the last row returns at once); two warps add theirs through shared memory
// behind the block's barrier (RMSNormPiecesTwoWarpRowsKernel, rmsnorm only: the warps past the last row read the last
// row and store nothing). Named barriers, one a row, had held an SM to 4 blocks (Nsight Compute's block limit
// "barriers": the kernel reserves all 16). See launch_pieces_warp_rows. kWarps == 0: one row a block of blockDim.x
// threads.
template <typename T, bool kFit, bool kFused, bool kOdd, int kVPT, int kWarps>
__device__ __forceinline__ void pieces_rows(const NormParams& p) {
  static_assert(sizeof(T) == 2, "16-bit types");
  static_assert(kVPT == 2 || kVPT == 4 || (kWarps == 1 && kVPT == 8) || (kWarps == 2 && kVPT == 3), "whole chunks a thread");
  static_assert(kWarps >= 0 && kWarps <= 2, "a block a row, or one or two warps a row");
  static_assert(kWarps < 2 || !kFused, "two-warp rows: rmsnorm's (a dead row would store the residual)");
  constexpr bool kWarpRows = kWarps > 0;
  using V = VecN<T, 8>;
  using W = VecN<T, 2>;
  const int lane = threadIdx.x, group = kWarpRows ? 32 * kWarps : blockDim.x;
  const int64_t row0 = kWarpRows ? static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y : blockIdx.x;
  const bool live = !kWarpRows || row0 < p.rows;
  if (kWarps == 1 && !live) return;
  const int64_t row = kWarps == 2 && !live ? p.rows - 1 : row0;
  const int d = p.d;
  const T* xrow = static_cast<const T*>(p.input) + row * p.in_stride;
  T* rrow = kFused ? static_cast<T*>(p.residual) + row * p.res_stride : nullptr;
  T* orow = static_cast<T*>(p.out) + row * p.out_stride;
  const T* wt = static_cast<const T*>(p.weight);
  const int head = static_cast<int>((16 - reinterpret_cast<uintptr_t>(xrow) % 16) % 16 / sizeof(T));  // 0, 2, 4, 6 (kOdd 0-7)
  const int m = (d - head) / 8;           // whole chunks
  const int tail0 = head + 8 * m;          // the tail piece: [tail0, d)
  constexpr int kPer = kOdd ? 1 : 2;       // elements a piece
  const int nw = (head + d - tail0) / kPer;  // pieces (<= 6, kOdd <= 14), head's first
  const int word = group - 1 - lane;       // this thread's piece, if < nw
  const int e = word < head / kPer ? kPer * word : tail0 + kPer * (word - head / kPer);  // its first element
  const bool piece = word < nw;
  const uint4* in = reinterpret_cast<const uint4*>(xrow + head);
  uint4* res = kFused ? reinterpret_cast<uint4*>(rrow + head) : nullptr;
  uint4* out = reinterpret_cast<uint4*>(orow + head);
  // line-aligned: the flat slot f = lane + k * group takes chunk f - s, s = the first whole chunk's 16-byte steps past
  // its 128-byte line; the first s slots take the row's last s chunks (valid slots: f < m)
  const int s = static_cast<int>(reinterpret_cast<uintptr_t>(xrow + head) % 128 / 16);
  auto slot_ok = [&](int f) { return kFit || f < m; };
  auto chunk_of = [&](int f, int k) { return k == 0 && f < s ? f - s + m : f - s; };
  if (blockIdx.x < kPrefetchBlocks && (!kWarpRows || threadIdx.y == 0)) {  // the late weight into L2
#pragma unroll
    for (int k = 0; k < kVPT; ++k) {
      const int c = lane + k * group;
      if (8 * c < d) asm volatile("prefetch.global.L2 [%0];" ::"l"(reinterpret_cast<const uint4*>(wt) + c));
    }
  }
  pdl_wait();
  V xv[kVPT], rv[kFused ? kVPT : 1];
  W xw, rw, ww;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int f = lane + k * group, c = chunk_of(f, k);
    if (slot_ok(f)) {
      *reinterpret_cast<uint4*>(&xv[k]) = in[c];
      if constexpr (kFused) *reinterpret_cast<uint4*>(&rv[k]) = res[c];
    }
  }
  if (piece) {
    xw = load_piece<kOdd, W>(xrow + e);
    if constexpr (kFused) rw = load_piece<kOdd, W>(rrow + e);
    ww = load_piece<kOdd, W>(wt + e);
  }
  pdl_launch_dependents();

  float ss = 0.f, ss_odd = 0.f;
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int f = lane + k * group, c = chunk_of(f, k);
    if (slot_ok(f)) {
      if constexpr (kFused) {
        add_pairs_rn(xv[k], rv[k]);  // residual += x, rounded to T
        if (!p.res_late) res[c] = *reinterpret_cast<const uint4*>(&xv[k]);
      }
#pragma unroll
      for (int j = 0; j < 8; j += 2) add_square_pair(xv[k], j, ss, ss_odd);
    }
  }
  if (piece) {
    if constexpr (kFused) {
      add_pairs_rn(xw, rw);
      store_piece<kOdd>(rrow + e, xw);
    }
    add_square_pair(xw, 0, ss, ss_odd);
  }
  ss += ss_odd;
  ss = warp_sum(ss);
  if constexpr (!kWarpRows) ss = sum_warp_partials(ss);
  if constexpr (kWarps == 2) {  // the row's two warps: each warp's sum, then both, added in warp order
    __shared__ float part[kWarpRowsMaxRows][2];
    if (lane % 32 == 0) part[threadIdx.y][lane / 32] = ss;
    __syncthreads();
    ss = part[threadIdx.y][0] + part[threadIdx.y][1];
    if (!live) return;
  }
  const float rstd = rsqrtf(ss * p.inv_d + p.eps);

  // chunk c's weights: elements head + 8c ... + 7 (inside the weight: the chunk is inside the row)
  auto weights = [&](int c) -> uint4 {
    const T* q = wt + head + 8 * c;
    if constexpr (kOdd) {
      if (head % 2) {  // weight chunks c and c + 1 (its part inside the weight), taken out (the same for the block)
        const uint4* wc = reinterpret_cast<const uint4*>(wt) + c;
        Chunk16 lo, hi;
        lo.u = __ldg(wc);
        hi.u = 8 * (c + 2) <= d ? __ldg(wc + 1) : load_chunk_part(wt + 8 * (c + 1), 0, d - 8 * (c + 1));
        switch (head) {
          case 1: return take8<1>(lo, hi);
          case 3: return take8<3>(lo, hi);
          case 5: return take8<5>(lo, hi);
          default: return take8<7>(lo, hi);
        }
      }
    }
    switch (head % 8) {  // the same for every thread of the block
      case 0: return __ldg(reinterpret_cast<const uint4*>(q));
      case 4: {
        const uint2 lo = __ldg(reinterpret_cast<const uint2*>(q)), hi = __ldg(reinterpret_cast<const uint2*>(q) + 1);
        return make_uint4(lo.x, lo.y, hi.x, hi.y);
      }
      default: {
        const unsigned* u = reinterpret_cast<const unsigned*>(q);
        return make_uint4(__ldg(u), __ldg(u + 1), __ldg(u + 2), __ldg(u + 3));
      }
    }
  };
  if (piece) {
    W o;
    normalise_pair<T>(xw, ww, 0, rstd, p.weight_bias, o);
    store_piece<kOdd>(orow + e, o);
  }
#pragma unroll
  for (int k = 0; k < kVPT; ++k) {
    const int f = lane + k * group, c = chunk_of(f, k);
    if (slot_ok(f)) {
      const uint4 wu = weights(c);
      const V& g = *reinterpret_cast<const V*>(&wu);
      V o;
#pragma unroll
      for (int j = 0; j < 8; j += 2) normalise_pair<T>(xv[k], g, j, rstd, p.weight_bias, o);
      if (kFused && p.res_late) res[c] = *reinterpret_cast<const uint4*>(&xv[k]);
      out[c] = *reinterpret_cast<const uint4*>(&o);
    }
  }
}

template <typename T, bool kFit, bool kFused = true, bool kOdd = false, int kVPT = 4>
__global__ void __launch_bounds__(kMaxBlock) RMSNormPiecesKernel(const NormParams p) {
  pieces_rows<T, kFit, kFused, kOdd, kVPT, 0>(p);
}
template <typename T, bool kFused, int kVPT>
__global__ void __launch_bounds__(kMaxBlock) RMSNormPiecesWarpRowsKernel(const NormParams p) {
  pieces_rows<T, false, kFused, true, kVPT, 1>(p);
}
// (Sessions 62-63 had a 3-chunk form capped at 32 registers, kCap, for rows past the wave; session 64 sent those rows
// to one warp a row at 8 chunks instead: launch_pieces_two_warp_rows.)
template <typename T, bool kFused, bool kOdd, int kVPT>
__global__ void __launch_bounds__(kMaxBlock) RMSNormPiecesTwoWarpRowsKernel(const NormParams p) {
  pieces_rows<T, false, kFused, kOdd, kVPT, 2>(p);
}

// Whether every row of x, the residual and out sits at the same offset in its 16-byte chunk (and the weight on one):
// the peeled kernel's condition. Strides in elements.
template <typename T, bool kFused>
bool peel_ok(const NormParams& p) {
  const auto off = [](const void* q) { return reinterpret_cast<uintptr_t>(q) % 16; };
  const int64_t e = 16 / sizeof(T);
  const auto same = [&](const void* q, int64_t stride) {
    return off(q) == off(p.input) && (stride - p.in_stride) % e == 0;
  };
  return sizeof(T) == 2 && off(p.weight) == 0 && same(p.out, p.out_stride) && (!kFused || same(p.residual, p.res_stride));
}

// The peeled kernel's launch: one row a block of whole warps, kVPT chunks a thread. At decode (rows <= 2 x the SM
// count) the fewest chunks a thread and the weight read with the row. So too past decode (session 39), where the
// rule's 4 chunks and late weight had been 0.79-0.80x FlashInfer (300 x 417 and 300 x 665 bf16, H200,
// decode_configs.py, NVIDIA_H200_decode_configs_peeled_past_decode_s39.txt): in the one-wave range (<= 4 x the SMs)
// for rows of <= 1024 chunks (1-2 a thread), and for rows of <= 256 chunks further: to 10 x the SMs at 33-192 chunks
// (16 x until session 62), to 8 x at the others. H200, lib_ab, both ops and dtypes
// (NVIDIA_H200_lib_ab_peeled_past_decode_s39.txt): 300-2112 rows x 417-1537 +2.7 to +34 %, 97 and 225 wide +0.7 to
// +7.4 % to 8 x; the one-wave range at 2049-4097 +6.5 to +17 %. Not where it lost: 8191 (1025 chunks, 4 a thread) -15 %
// at 300-528 rows, 97-225 -4 to -8 % and 2033 (255 chunks) -3 to -5 % at 1500-2112. Past that 4 chunks a thread (more
// where a 512-thread block needs them) and the weight read after the reduction. Session 62: past ~10-12 x the SMs the
// decode choice ran a second wave at 1023-1527 wide, 10-21 % behind the pieces kernel (rmsnorm 1600 x 1025 bf16 7.04
// us against 6.35); H200, lib_ab, both ops and dtypes, 1100-2200 rows x 251-1529 odd
// (NVIDIA_H200_lib_ab_short_rows_s62.txt): ending at 10 x +10 to +21 % at 1600-2112 x 1023-1527, +2 to +20 % at 1450,
// 251-775 -1.6 to +4.0 %; at 12 x 1450 rows kept the loss. vpt_hint (tuning only): 1-8 forces the chunks a thread,
// 100 + v the early weight, 200 + v the late one. sms: the SM count as dispatch read it (0: unknown, no decode rule).
// Rows of more than 8 chunks a thread in kMaxBlock threads (d > kPeelMaxD): cudaErrorInvalidValue.
// The widest row it takes: (d + 7) / 8 + 1 chunks <= 8 x kMaxBlock, so d <= 8 (8 kMaxBlock - 1) = 32760.
constexpr int kPeelMaxD = 8 * (8 * kMaxBlock - 1);

constexpr int kPiecesMaxD = 8 * 4 * kMaxBlock;  // the pieces kernel's widest row (16384)
// The narrowest row the rules send there (at least 63: the pieces kernel's line-aligned slots need 7 whole chunks
// after the head). Session 54 took rmsnorm's odd rows from 64 wide in fp16 but from 1000 in bf16, and the fused op's
// rows from 1025 (kPiecesShortMinD); session 57, with 2 chunks a thread for both ops (below), every odd row from 64,
// and the fused op's rows of 2-element vectors from 513 past kPiecesNarrowPairElems elements (dispatch_peeled and
// norm.cuh's rules).
constexpr int kPiecesMinD = 64;
static_assert(kPiecesMinD >= 63, "the pieces kernel's line-aligned slots need 7 whole chunks");
// Its block: whole warps for vpt chunks a thread of the row's d / 8 (at least its whole chunks).
inline unsigned pieces_threads(int d, int vpt) { return static_cast<unsigned>(ceil_div(ceil_div(d / 8, vpt), 32) * 32); }
// The fused op's short rows in the pieces kernel: 2 chunks a thread, not 4, up to this width (session 55). Rows of
// 1025-2048 elements on 2-, 4- or 8-byte boundaries had kept the kernels they had before the pieces kernel existed
// (4-byte rows the 4-byte vector kernel, 8-byte rows the 8-byte one, odd rows the peeled kernel's 2 chunks a thread),
// at 82-94 % of the same-run copy from 2000 rows on the H200. lib_ab, both dtypes, against those kernels, where the rule
// now reaches the pieces kernel (outputs within an ulp: a few in 10^5 round the other way, the sums split differently;
// NVIDIA_H{200,100}_lib_ab_fused_short_*_s55.txt): H200 4-byte rows 1026-2046 at 600-65536 rows +0.5 to +25 % (8192 x
// 1922 bf16 37.4 -> 35.6 us, 1500 x 1538 fp16 +25 %), odd rows 1025-2033 +1.3 to +19.5 %, 8-byte rows 1540-2044 from
// 8192 rows +1.0 to +2.8 %; H100 +2.2 to +22.6 %, +0.4 to +14.8 %, +0.7 to +2.5 %; the cases the rule leaves alone -1.3
// to +1.4 %. The same kernel at 4 chunks a thread (H200): at 2000 rows -4.4 to +7.4 % against 2 chunks, at the other
// row counts -11.7 to +3.9 % (mostly behind), and -5.8 to +2.1 % against the 4-byte kernel at 600-800 rows. Wider rows
// at 2 chunks: session 56, below. kPiecesShortMinD: the narrowest such row (norm.cuh's rule for rows of 2- and
// 4-element vectors; until session 57 dispatch_peeled's for odd ones too, which now start at kPiecesMinD).
//
// Session 56: 2 chunks a thread for every row the fused op sends here up to kPiecesTwoMaxD, except by waves. A block
// of 2 chunks a thread has twice the warps of one of 4, and the 2-chunk kernel's 38-40 registers (the 4-chunk one's
// 47-60) let fewer such blocks share an SM: at 2050 wide 12 blocks an SM at 2 chunks, 16 at 4 (the register file
// counted per SM sub-partition; vec.cuh's resident_blocks asks the CUDA runtime). Where the rows fit one wave at 4
// chunks but not at 2, 4 win; elsewhere 2 do (more threads' loads in flight for each row), except rows wider than 4096
// over more than 4 waves at 4. A wave here holds a few blocks more than the slots (SMs / 16: those start as the first
// blocks finish): 1 block over cost nothing measurable, 12 over (1200 x 2306-2562) cost 8-10 %. lib_ab, both dtypes:
// - H200, 2 chunks everywhere against 4 at 600-16384 rows x 2049-8191 (NVIDIA_H200_lib_ab_pieces2_survey_s56.txt): the
//   losses were grids of one wave at 4 chunks and more at 2 (2000 x 2049-2050 -4.7 to -5.8 %, 1500 x 2561 and 3073
//   -4.9 to -6.9 %, 1000 x 4097-4100 -5.4 to -7.5 %, 600 x 5122-6146 -6.9 to -9.4 %) or wide rows past 4 waves (-0.1
//   to -0.9 %); where the rule (without the slack) keeps 2 chunks -3.4 to +9.7 % (one fp16 / bf16 pair split:
//   4000 x 3074 +1.8 / -3.4 %; 600 x 2049 +9.6 %, 8192 x 2049 +3.1 to +3.7 %, 16384 x 2049-2050 +1.4 to +2.2 %,
//   1000 x 5122 +5.4 to +6.4 %).
// - H200, this rule without the few blocks over, and 2 chunks everywhere, against session 55's rule at 700-24576 rows x
//   1026-8191, rows on both sides of the wave bounds (NVIDIA_H200_lib_ab_pieces_waves_{bf16,fp16}_s56.txt): 4 chunks
//   at 1800 x 1577-2046 +6.3 to +8.5 % and 3500 x 1026 +5.3 % (session 55's 7 % at 2000 rows), but -2 to -3 % a block
//   past the 2-chunk wave (1585 x 1577-2046, 3169 x 1026); a block past the 4-chunk wave (2113 x 2050, 1585 x 2561
//   and 3073) 4 chunks were still 5-6.5 % ahead of 2. Both are what the few blocks over settle.
// - the rule against session 55's, 418 shapes x 2 dtypes at 529-16384 rows x 1026-8191, rows on both sides of every
//   bound (NVIDIA_H{200,100}_lib_ab_pieces_rule_s56.txt): H200 -2.7 to +11.3 % (377 of the 401 cases that moved by
//   more than 1 % faster; 1000 x 5121 fp16 +11.3 %), H100 -3.4 to +8.1 % (300 of 321); the worst 9 blocks past the
//   4-chunk wave (1329 x 2306, 2121 x 2050). At 16384 rows x 2049-8191: 96.2-97.7 % of cp on the H200.
//
// Session 57: rmsnorm's rows here by the same waves (4 chunks a thread since sessions 44 and 54). Its kernels hold
// fewer registers (2 chunks 32, 4 chunks 40; kFit 40 / 55), so its waves are longer, but the argument is the fused
// op's. It differs at three edges, measured (lib_ab, both dtypes, outputs within an ulp):
// - H200, 2 chunks everywhere and the fused op's rule against 4 chunks at 600-16384 rows x 1025-8191, every row class
//   (NVIDIA_H200_lib_ab_rms_pieces2_{bf16,fp16}_s57.txt): 2 chunks lost 7-11 % wherever the rows fit one wave at 4 but
//   not at 2 (1500 x 3073-4098, 600 x 8190-8191); by waves -6.9 to +9.8 %, the losses at 8 blocks past the 2-chunk wave
//   (800 x 5121-5122 -5.4 to -6.9 %: no blocks over there for rmsnorm) and rows wider than 4096 at 2-4 waves (-1 to
//   -3.3 %: rmsnorm past 2 waves at 4, not 4).
// - H200, that rule at every bound +-16 rows and past (NVIDIA_H200_lib_ab_rms_waves_s57.txt, ..._waves2_s57.txt): 9-16
//   rows past the 4-chunk wave 2 chunks lost 1-4.6 % at 2049-2050 (24 blocks an SM at 4 chunks: short blocks, a cheap
//   tail), level at 24-33, +2.2 to +8.8 % from 48 on; at 5121-8191 (7-9 blocks an SM) they won 2.3-6.3 % from 9 rows
//   past. So a slack of wave / 160 blocks (19 rows at 2049, 7 at 5121). Past that: +0.3 to +8.8 % at 1001-8191 past the
//   4-chunk wave to 2 waves, level (+-1.5 %) beyond; fp16 97-1023 at 1100-32768 rows -0.4 to +8.2 %.
// - The rule against 4 chunks, 418 cases at 600-16384 rows x 1025-8191 and at the bounds (NVIDIA_H{200,100}_lib_ab_rms_
//   rule_s57.txt): where the output changed (220) H200 -2.6 to +9.8 % (170 faster by more than 1 %, 6 slower: 3188-3189
//   x 2049-2050, the slack's edge, and noise: identical kernels spread -4.0 to +2.8 % in the same run), H100 -2.7 to
//   +7.5 % (154 / 8; the worst 3188-3200 x 2049-2050, 20-32 rows past the 4-chunk wave: its edge sits later there).
// - With 2 chunks, narrower rows (..._narrow_pieces_s57.txt, ..._narrow_pairs_s57.txt, ..._narrow_rule_s57.txt): bf16
//   odd rows of 65-999 (session 54's 4 chunks had lost 0.2-2.8 % at 417-665) and the fused op's odd rows of 65-1023
//   past the short-row rule, H200 +0.8 to +27.4 % (4300 x 999 rmsnorm 12.17 -> 9.55 us, 32768 x 665 fused 62.5 -> 50.7
//   us), H100 +0.7 to +22.8 %, none slower. The fused op's 2-element rows against the 4-byte kernel: 130-258 wide -1 to
//   -6.8 % at 1000-2200 rows (kept), 514-1022 behind up to about 2^20 elements (514 x 1400 -1.2 to -2.4 %, 1022 x 1000
//   +0.4 to +1.2 %) and +1.0 to +13.5 % past them (770 x 2000 +11.4 to +13.5 %): so 513-1024 wide past 2^20
//   elements; 4-element rows (516, 1020, past 48 x the SMs) -3.0 to +1.3 % (kept).
constexpr int kPiecesShortD = 2048, kPiecesShortMinD = 1025;
constexpr int kPiecesNarrowPairMinD = 512;               // the fused op's narrower 2-element rows: wider than this
constexpr int64_t kPiecesNarrowPairElems = int64_t{1} << 20;  // and past this many elements (session 57, above)
constexpr int kPiecesTwoMaxD = 8 * 2 * kMaxBlock;  // the widest row at 2 chunks a thread (8192)
constexpr int kPiecesWideD = 4096, kPiecesWideWaves = 4;  // wider rows take 4 chunks past this many waves of them
constexpr int kPiecesWaveOver = 16;  // a grid up to SMs / 16 blocks past a wave counts as one wave (above)
constexpr int kPiecesRmsWideWaves = 2, kPiecesRmsTail = 160;  // rmsnorm's (session 57, above)
// The pieces kernel's launch at kVPT chunks a thread: one row a block of pieces_threads; the exact-fit form where every
// row has exactly kVPT x blockDim whole chunks (fit; odd rows never).
template <typename T, bool kFused, bool kOdd, int kVPT>
cudaError_t launch_pieces_at(const NormParams& p, bool fit, cudaStream_t stream) {
  const dim3 g(static_cast<unsigned>(p.rows)), b(pieces_threads(p.d, kVPT));
  if constexpr (!kOdd) {
    if (fit) return launch_kernel(RMSNormPiecesKernel<T, true, kFused, false, kVPT>, g, b, stream, p.pdl, p);
  }
  return launch_kernel(RMSNormPiecesKernel<T, false, kFused, kOdd, kVPT>, g, b, stream, p.pdl, p);
}
// Resident blocks an SM of the pieces kernel at kVPT chunks a thread for rows of d (0: unknown).
template <typename T, bool kFused, bool kOdd, int kVPT>
int pieces_resident(int d, bool fit) {
  const int threads = static_cast<int>(pieces_threads(d, kVPT));
  if constexpr (!kOdd) {
    if (fit) return resident_blocks<RMSNormPiecesKernel<T, true, kFused, false, kVPT>>(threads);
  }
  return resident_blocks<RMSNormPiecesKernel<T, false, kFused, kOdd, kVPT>>(threads);
}
// Whole chunks a thread of the pieces kernel: 2 up to kPiecesTwoMaxD wide, 4 where the rows fit one wave at 4 chunks
// but not at 2, or are wider than kPiecesWideD and fill more than kPiecesWideWaves (rmsnorm: kPiecesRmsWideWaves) waves
// at 4 (sessions 56-57, above). A wave counts a few blocks more than it holds: the fused op's SMs / kPiecesWaveOver at
// both bounds, rmsnorm's none past the 2-chunk wave and wave / kPiecesRmsTail past the 4-chunk one. fit2 / fit4: every
// row has exactly vpt x blockDim whole chunks (odd rows: never). Where the resident blocks cannot be read: the rules
// from before (the fused op 2 up to kPiecesShortD, session 55; rmsnorm 4).
template <typename T, bool kFused, bool kOdd>
int pieces_vpt(const NormParams& p, int sms, bool fit2, bool fit4) {
  if (p.d > kPiecesTwoMaxD) return 4;
  const int64_t wave2 = static_cast<int64_t>(pieces_resident<T, kFused, kOdd, 2>(p.d, fit2)) * sms;
  const int64_t wave4 = static_cast<int64_t>(pieces_resident<T, kFused, kOdd, 4>(p.d, fit4)) * sms;
  if (wave2 <= 0 || wave4 <= 0) return kFused && p.d <= kPiecesShortD ? 2 : 4;
  const int64_t over2 = kFused ? sms / kPiecesWaveOver : 0;
  const int64_t over4 = kFused ? sms / kPiecesWaveOver : wave4 / kPiecesRmsTail;
  if (wave2 < wave4 && p.rows > wave2 + over2 && p.rows <= wave4 + over4) return 4;
  if (p.d > kPiecesWideD && p.rows > (kFused ? kPiecesWideWaves : kPiecesRmsWideWaves) * wave4) return 4;
  return 2;
}
// Rows on 2-byte boundaries of one warp's chunks (kVPT x 32 whole chunks at most: 4 a lane up to 1023 wide; 8, to 2047,
// lost on odd rows, see dispatch_peeled, but takes rmsnorm's 4-chunk two-warp rows' band, session 63), kRows rows a
// block: one block a row left the block scheduler's rate the limit at many rows (dispatch_peeled).
// The rule's bounds (dispatch_peeled): widths 513-1023 (the fused op's to 800), past 15 x the SMs (30 x past 800).
constexpr int kWarpRowsMinD = 513, kWarpRowsMaxD = 1023, kWarpRowsFusedMaxD = 800;
constexpr int kWarpRowsFromSms = 15, kWarpRowsWideFromSms = 30;
template <typename T, bool kFused, int kVPT, int kRows>
cudaError_t launch_pieces_warp_rows(const NormParams& p, cudaStream_t stream) {
  const dim3 g(static_cast<unsigned>(ceil_div(p.rows, int64_t{kRows}))), b(32, kRows);
  return launch_kernel(RMSNormPiecesWarpRowsKernel<T, kFused, kVPT>, g, b, stream, p.pdl, p);
}
// Rows of up to 256 whole chunks (2048 wide at most) two warps a row, kRows rows a block; rmsnorm's (norm.cuh's
// two_warp_rows). Chunks a lane: the fewest that hold the row. A row has at most d / 8 whole chunks (its head piece
// comes first), so 2 a lane hold rows up to kTwoWarpVpt2MaxD wide and 3 up to kTwoWarpVpt3MaxD (session 62): at 2
// chunks the kernel takes 32 registers (16 blocks an SM; 40 at 4 chunks, 12 blocks), at 3 it takes 38 (12 blocks, but
// less to do than at 4); 4 the rest. H200, lib_ab, bf16 and fp16, 16-bit rows of 2- and 4-element vectors
// (NVIDIA_H200_lib_ab_two_warp_vpt_*_s62.txt): 2 chunks +12.6 to +16.1 % at 3500-4096 x 1026-1030, +0.1 to +2.7 %
// elsewhere; 3 chunks +0.2 to +2.9 %.
// Past the 3- and 4-chunk kernels' wave (12 blocks of two rows an SM: 24 rows), up to 32 rows an SM, one warp a row at
// 8 chunks a lane (RMSNormPiecesWarpRowsKernel<T, false, 8>, 60 registers, 8 blocks of kWarp8Rows rows an SM) runs the
// rows as one wave, not two; below the wave and past its own it loses (one warp's loads a row, not two). Both waves are
// read from the CUDA runtime's occupancy (resident_blocks), so the band follows the registers ptxas gives either kernel.
// - Session 63, 4 chunks (1300-32768 rows x 1546-2044, 2- and 4-element rows, both dtypes; NVIDIA_H200_lib_ab_warp8_s63.txt):
//   at 3300-4224 rows +6.8 to +14.8 % (3300 x 1790 bf16 11.94 -> 10.47 us); below 24 x up to -11.5 %, past 32 x up to
//   -10.0 %.
// - Session 64, 3 chunks (2- and 4-element rows of 1036-1542, against session 62's 3-chunk kernel capped at 32
//   registers, 16 blocks an SM, which had taken the band; NVIDIA_H200_lib_ab_three_{warp8,final}_s64.txt): at 3177-4224
//   rows fp16 +1.8 to +8.2 %, bf16 -1.4 to +4.4 %; so the capped kernel went. rmsnorm's odd rows of 1152-2047 take the
//   band at 3 and 4 chunks (norm.cuh's two_warp_rows; NVIDIA_H200_lib_ab_odd_final_s64.txt: at 3177-4224 rows +0.1 to
//   +8.1 % against the pieces kernel, -2.4 to +5.4 % at 3169-3176, where the two-warp kernel runs a second wave).
// The band starts a few blocks past the wave (kWarp8Over3, kWarp8Over4): a second wave of a few blocks costs less than
// the band's slower rows. lib_ab, rows 1-41 past 24 x the SMs (3169-3209), 1036-2044, both dtypes, against no band
// (NVIDIA_H200_lib_ab_band_start_fine_s63.txt): at one row past, no band was faster by up to 4.4 % (4 chunks); the
// 8-chunk band won everywhere from 5 rows past (3 blocks). At 3 chunks 1036 lost 3.3-3.5 % 8 rows past (4 blocks;
// ..._three_warp8_s64.txt), nothing from 12 rows past beyond 0.7 %.
constexpr int kTwoWarpVpt2MaxD = 2 * 64 * 8 + 7, kTwoWarpVpt3MaxD = 3 * 64 * 8 + 7, kWarp8Rows = 4;
constexpr int kWarp8Over3 = 4, kWarp8Over4 = 2;  // the band's first blocks past the wave, at 3 and 4 chunks a lane
// Rows a wave holds of kKernel in blocks of `threads` threads and `rows` rows on `sms` SMs (the CUDA runtime's
// occupancy, resident_blocks; 0: unknown).
template <auto kKernel>
int64_t wave_rows(int threads, int rows, int64_t sms) {
  return static_cast<int64_t>(resident_blocks<kKernel>(threads)) * rows * sms;
}
// launch_pieces_two_warp_rows' choice for rows of p.d on `sms` SMs: the two-warp kernel, one warp a row at 8 chunks
// (the band past its wave), or kTwoWarpPast: rows past the band (the two-warp kernel runs them unless the caller sends
// them elsewhere: norm.cuh's dispatch sends rmsnorm's odd rows wider than kTwoWarpRowsOddMaxD to the pieces kernel).
// The fused op has no band (never measured; its two-warp rows are not taken).
enum TwoWarpRoute { kTwoWarp, kOneWarp8, kTwoWarpPast };
template <typename T, bool kFused, bool kOdd, int kRows>
TwoWarpRoute two_warp_route(const NormParams& p, int64_t sms) {
  if (p.d <= kTwoWarpVpt2MaxD) return kTwoWarp;
  const bool three = p.d <= kTwoWarpVpt3MaxD;
  const int64_t wave = three ? wave_rows<RMSNormPiecesTwoWarpRowsKernel<T, kFused, kOdd, 3>>(64 * kRows, kRows, sms)
                             : wave_rows<RMSNormPiecesTwoWarpRowsKernel<T, kFused, kOdd, 4>>(64 * kRows, kRows, sms);
  if (wave <= 0 || p.rows <= wave + int64_t{three ? kWarp8Over3 : kWarp8Over4} * kRows) return kTwoWarp;
  if constexpr (kFused) return kTwoWarpPast;
  const int64_t wave8 = wave_rows<RMSNormPiecesWarpRowsKernel<T, kFused, 8>>(32 * kWarp8Rows, kWarp8Rows, sms);
  return p.rows <= wave8 ? kOneWarp8 : kTwoWarpPast;
}
template <typename T, bool kFused, bool kOdd, int kRows>
cudaError_t launch_pieces_two_warp_rows(const NormParams& p, TwoWarpRoute route, cudaStream_t stream) {
  static_assert(kRows >= 1 && kRows <= kWarpRowsMaxRows, "rows a block");
  if (route == kOneWarp8) return launch_pieces_warp_rows<T, kFused, 8, kWarp8Rows>(p, stream);
  const dim3 g(static_cast<unsigned>(ceil_div(p.rows, int64_t{kRows}))), b(64, kRows);
  if (p.d <= kTwoWarpVpt2MaxD)
    return launch_kernel(RMSNormPiecesTwoWarpRowsKernel<T, kFused, kOdd, 2>, g, b, stream, p.pdl, p);
  if (p.d <= kTwoWarpVpt3MaxD)
    return launch_kernel(RMSNormPiecesTwoWarpRowsKernel<T, kFused, kOdd, 3>, g, b, stream, p.pdl, p);
  return launch_kernel(RMSNormPiecesTwoWarpRowsKernel<T, kFused, kOdd, 4>, g, b, stream, p.pdl, p);
}
// The pieces kernel's launch at pieces_vpt chunks a thread.
template <typename T, bool kFused, bool kOdd>
cudaError_t launch_pieces(const NormParams& p, int sms, bool fit2, bool fit4, cudaStream_t stream) {
  if (pieces_vpt<T, kFused, kOdd>(p, sms, fit2, fit4) == 2) return launch_pieces_at<T, kFused, kOdd, 2>(p, fit2, stream);
  return launch_pieces_at<T, kFused, kOdd, 4>(p, fit4, stream);
}
template <typename T, bool kFused>
cudaError_t dispatch_peeled(NormParams p, int vpt_hint, int sms, cudaStream_t stream) {
  const int nch = (p.d + 7) / 8 + 1;  // the most chunks a row can span
  const int weight_hint = vpt_hint >= 200 ? 0 : vpt_hint >= 100 ? 1 : -1;
  vpt_hint %= 100;
  const int64_t sm64 = sms;
  const bool decode = sms > 0 && p.rows <= 2 * sm64;
  // past decode, the decode choice while the grid is one wave or rows are short (above)
  const int64_t short_rows = (nch > 32 && nch <= 192 ? 10 : 8) * sm64;
  const bool wave = p.rows <= 4 * sm64 && nch <= 2 * kMaxBlock;
  const bool latency = decode || (sms > 0 && vpt_hint == 0 && weight_hint < 0 &&
                                  (wave || (nch <= 256 && p.rows <= short_rows)));
  // The fused op's short rows past that (<= 256 chunks, d <= 2033) take 2 chunks a thread, not 4: blocks of 2-4 warps,
  // not 1-2. Session 51, H200, lib_ab, both dtypes, 4000-32768 rows (NVIDIA_H200_lib_ab_peeled_vpt2_s51.txt): 1025-2001
  // -0.1 to +9.4 % (8192 x 1577 bf16 35.3 -> 33.0 us); at 2047 and 2233 2 chunks were 2-5 % slower (2477 +3 to +4 %).
  int vpt = vpt_hint > 0 ? vpt_hint : latency ? 1 : kFused && nch <= 256 ? 2 : 4;
  while (ceil_div(nch, vpt) > kMaxBlock && vpt < 8) vpt *= 2;
  // the fused kernel at 2049-2176 chunks: 4 a thread in a block of up to 544 threads, the weight late (not 8 a thread,
  // unless forced)
  const bool wide = kFused && vpt == 8 && vpt_hint != 8 && weight_hint != 1 && ceil_div(nch, 4) <= kPeelWide;
  if (wide) vpt = 4;
  if (ceil_div(nch, vpt) > (wide ? kPeelWide : kMaxBlock) || (vpt != 1 && vpt != 2 && vpt != 4 && vpt != 8))
    return cudaErrorInvalidValue;
  const bool early = weight_hint >= 0 ? weight_hint == 1 : latency && vpt <= 4 && !wide;
  if (early && (vpt == 8 || wide)) return cudaErrorInvalidValue;
  if constexpr (kFused) p.res_late = sms > 0 && 2 * p.rows >= 3 * static_cast<int64_t>(sms);
  const dim3 g(static_cast<unsigned>(p.rows)), b(static_cast<unsigned>(ceil_div(ceil_div(nch, vpt), 32) * 32));
  // The early weight is held raw (kHold) at 2 and 4 chunks a thread, except rmsnorm's 4-chunk blocks of more than
  // 448 threads once rows outnumber SMs: there its 72 registers fit one block an SM where the unheld 56 fit two.
  const bool hold = early && vpt >= 2 && (kFused || vpt < 4 || b.x <= 448 || p.rows <= sms);
  // The fused op's 4 chunks a thread with the weight late (the rule's choice past the one-wave rows): rows of up to
  // 16384 take the pieces kernel (kOdd: whole chunks only in its chunk loop; above, with the measurements). Wider ones
  // (16385-17400, in blocks of up to 544 threads) on rows not all on 128-byte lines (odd widths never are): the chunks
  // mapped from the row's line (kShift), at no register cost (56 either way). Session 51, H200, lib_ab, both dtypes
  // (NVIDIA_H200_lib_ab_peeled_shift*_s51.txt): 600-14664 rows x 5001-12279 and 13301-16383 -0.2 to +2.9 % (8192 x
  // 16383 bf16 271.8 -> 268.8 us). (Session 51's three-block kernel for blocks of 385-416 threads, d 12281-13304, went
  // with session 53's pieces kernel, 1.4-2.0 % faster there at 8192-17618 rows.)
  // Session 54: rmsnorm's rows the same way (fp16 from 64 wide, bf16 from 1000; session 57: both from kPiecesMinD),
  // and its 8 chunks a thread with the weight late (rows of 2049+ chunks, 16377-16384, at every row count, decode
  // too); it has no line-aligned peeled kernel. lib_ab, both dtypes, outputs a few in 10^5 an ulp off (the sums split differently):
  // - 1025-16383 odd, 64-17618 rows (NVIDIA_H{200,100}_lib_ab_rms_odd_pieces_s54.txt): where the rule reaches it (from
  //   600 rows) H200 +6 to +29 % (8192 x 1025 bf16 18.6 -> 14.6 us, 8192 x 9793 98.6 -> 82.3 us), H100 +1.1 to +28 %.
  // - 16377-16383, 1-17618 rows (..._rms_8chunk_pieces_s54.txt): H200 +13 to +45 % (1 x 16383 8.4 -> 5.8 us, 8192 x
  //   16383 158.7 -> 135.0 us), H100 +10.6 to +44 %.
  // - 97-1023 odd, reached past 8-16 x the SMs (..._rms_narrow_pieces_s54.txt, H100 in ..._rms_odd_pieces_s54.txt):
  //   fp16 +1.2 to +25 % on both GPUs (never slower); bf16 1023 +12 to +24 %, but 417-665 -2.8 to -0.2 % on the H200
  //   (665 +2.6 to +4.4 % on the H100) and 97-225 -1.0 to +8.4 %: so bf16 only from 1000 (666-999 not measured).
  // the rule's late-weight choice (no hint): 4 chunks a thread, or rmsnorm's 8 at 2049+ chunks
  // Session 55: the fused op's short odd rows past the short-row rule (2 chunks a thread, <= 256 chunks, 1025-2040
  // wide) too, in the pieces kernel's 2-chunk form (kPiecesShortD, with the measurements).
  // Session 57: both ops' odd rows from kPiecesMinD (above, with the measurements).
  const bool late = (vpt == 4 || (!kFused && vpt == 8) || (kFused && vpt == 2 && !latency)) && !early && vpt_hint == 0 &&
                    weight_hint < 0;
  // Session 60: rows of 513-1023 (64-128 whole chunks: one warp's 4 a lane) past many rows, one warp a row and 4 rows
  // a block (launch_pieces_warp_rows), not one block a row of 1-2 warps: the block scheduler's rate had been the limit,
  // 82.3 us at 65536 rows at every such width, both ops (Nsight Compute, session 59: achieved occupancy 24.5 %, DRAM
  // 29 %). H200, lib_ab, both dtypes, outputs within an ulp (a few in 10^4 round the other way: the sums split
  // differently; NVIDIA_H200_lib_ab_odd_warp_rows_s60.txt), 300-65536 rows x 513-2047 odd, 4 or 8 rows a block against
  // main: rmsnorm 513-769 +0.5 to +11 % at 2000 rows, +11 to +29 % at 4000, up to +110 % at 65536 (513); 897-1023 -2
  // to +15 % at 2000-8192 rows, +5 to +32 % from 16384; the fused op (more bytes a row) 513-769 -0.8 to +6 % at
  // 2000-8192, +1.7 to +15.5 % from 16384, 897-1023 -2 to +1 % past 4000; both -9 to +5 % at 300-1000 rows, and 1025-2047
  // (8 chunks a lane) lost at most row counts (-26 to +15 %). 4 rows a block beat 8 by 0-5 % from 16384 rows. So: 513-800
  // past 15 x the SMs (both ops), rmsnorm's 801-1023 past 30 x (..._final_s60.txt: on other widths and rows rmsnorm
  // -2.5 to +89 %, the fused op -2.1 to +10 %).
  if (vpt_hint == 0 && weight_hint < 0 && sms > 0 && p.d >= kWarpRowsMinD &&
      p.d <= (kFused ? kWarpRowsFusedMaxD : kWarpRowsMaxD) &&
      p.rows > (p.d <= kWarpRowsFusedMaxD ? kWarpRowsFromSms : kWarpRowsWideFromSms) * sm64)
    return launch_pieces_warp_rows<T, kFused, 4, 4>(p, stream);
  if (late && p.d >= kPiecesMinD && p.d <= kPiecesMaxD)
    return launch_pieces<T, kFused, true>(p, sms, false, false, stream);
  if constexpr (kFused) {
    if (late && !rows_on_lines<T>(p.input, p.in_stride))  // (d > 16384 here: every such row spans 2049+ chunks)
      return launch_kernel(RMSNormPeeledKernel<T, 4, true, false, false, true>, g, b, stream, p.pdl, p);
  }
  switch (vpt * 4 + early * 2 + hold) {
    case 6: return launch_kernel(RMSNormPeeledKernel<T, 1, kFused, true, false>, g, b, stream, p.pdl, p);
    case 11: return launch_kernel(RMSNormPeeledKernel<T, 2, kFused, true, true>, g, b, stream, p.pdl, p);
    case 19: return launch_kernel(RMSNormPeeledKernel<T, 4, kFused, true, true>, g, b, stream, p.pdl, p);
    case 4: return launch_kernel(RMSNormPeeledKernel<T, 1, kFused, false, false>, g, b, stream, p.pdl, p);
    case 8: return launch_kernel(RMSNormPeeledKernel<T, 2, kFused, false, false>, g, b, stream, p.pdl, p);
    case 16: return launch_kernel(RMSNormPeeledKernel<T, 4, kFused, false, false>, g, b, stream, p.pdl, p);
    case 32: return launch_kernel(RMSNormPeeledKernel<T, 8, kFused, false, false>, g, b, stream, p.pdl, p);
    case 18:
      if constexpr (!kFused) return launch_kernel(RMSNormPeeledKernel<T, 4, false, true, false>, g, b, stream, p.pdl, p);
      break;
  }
  return cudaErrorInvalidValue;
}

// The pieces kernel's launch (16-bit, x / residual / out at one offset in every row: peel_ok; 4-byte aligned).
// One row a block, pieces_vpt whole chunks a thread: d <= kPiecesMaxD. kFit where every row, whatever its offset in
// the rows' cycle, has exactly vpt x blockDim whole chunks (told for both chunk counts; pieces_vpt picks).
template <typename T, bool kFused = true>
cudaError_t dispatch_pieces(NormParams p, int sms, cudaStream_t stream) {
  if (p.d > kPiecesMaxD || p.d % 2 != 0) return cudaErrorInvalidValue;
  const int e = 16 / static_cast<int>(sizeof(T));
  const int64_t a0 = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p.input) % 16 / sizeof(T));
  if (a0 % 2 != 0) return cudaErrorInvalidValue;
  const int whole2 = 2 * static_cast<int>(pieces_threads(p.d, 2));
  const int whole4 = 4 * static_cast<int>(pieces_threads(p.d, 4));
  bool fit2 = true, fit4 = true;
  for (int64_t r = 0; r < std::min<int64_t>(p.rows, e); ++r) {  // the rows' offsets repeat every 8 rows at most
    const int a = static_cast<int>(((a0 + r * (p.in_stride % e)) % e + e) % e);
    const int whole = (p.d - (e - a) % e) / e;
    fit2 = fit2 && whole == whole2;
    fit4 = fit4 && whole == whole4;
  }
  if constexpr (kFused) p.res_late = sms > 0 && 2 * p.rows >= 3 * static_cast<int64_t>(sms);
  return launch_pieces<T, kFused, false>(p, sms, fit2, fit4, stream);
}

}  // namespace norm_detail

}  // namespace flashinfer_nb
