// Issue 19, session 30: A/B of two or three trees of the library's kernels (rmsnorm, fused_add_rmsnorm,
// silu_and_mul) in one process, timed as bench_vs_flashinfer times a call (CUDA events around one launch, 256 MB L2
// flush before each; median and 10 %-trimmed mean of n, three interleaved rounds). At decode batches the differences
// are a few hundredths of a microsecond, under the spread between processes or machines, so the trees go in one
// binary: lib_ab_tu.cu compiled once per tree, each in its own namespace. Every tree's output is compared bit for bit
// with tree a's after the first round.
//   old=/tmp/old/include   # e.g. git archive HEAD include | tar -x -C /tmp/old
//   for t in a:$old b:include; do nvcc -O3 -std=c++17 -arch=sm_90a -c -I ${t#*:} -Dflashinfer_nb=fnb_${t%%:*} \
//     -DLIB_AB_ENTRY=lib_${t%%:*} -o /tmp/ab_${t%%:*}.o benchmarks/explore/lib_ab_tu.cu; done
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/ab benchmarks/explore/lib_ab.cu /tmp/ab_a.o /tmp/ab_b.o
//   /tmp/ab [N [OPS [DTYPES [ROWS [WIDTHS [P]]]]]]   e.g. /tmp/ab 200 rms,fused bf16 32,128,256 1536,4096
// OPS: a comma list of rms, fused, silu, gelu, gtanh (default rms,fused); WIDTHS: the norm's hidden size, the gated ops' output
// width d.
// A third tree: build /tmp/ab_c.o the same way and add -DLIB_AB_C and it to the nvcc line.
// All of that in one step: benchmarks/explore/lib_ab_build.sh OUT TREE_A TREE_B [TREE_C] (revisions or include folders).
// The fused op's cases also time "cp", a copy of the bytes it moves (explore.cuh's swap_copy; its output is not
// checked), where R x D is a multiple of 8.
// Session 65: a 6th argument P (default 1) keeps P sets of the buffers (x, the residual, out), each after a spacer
// allocation of a pseudo-random multiple of 512 B below 4 MB, and every tree's launches take the sets in turn, so a
// round's statistics cover every placement for every tree alike. Where the buffers sat moved a gated case by up to 2 %,
// and not alike for two kernels (benchmarks/explore/gated_context.py, NOTES.md session 65); the outputs are compared on
// the first set.
//   /tmp/ab 20 silu,gtanh all 3000,4600 780,1004 4
#include <memory>

#include "explore.cuh"

LibEntry lib_a, lib_b;

#ifdef LIB_AB_C
LibEntry lib_c;
#endif

int main(int argc, char** argv) {
  const int n = argc >= 2 ? std::max(atoi(argv[1]), 3) : 200;
  const std::string ops = std::string(",") + (argc >= 3 ? argv[2] : "rms,fused") + ",", dts = argc >= 4 ? argv[3] : "all";
  const std::vector<int> rows = csv_ints(argc >= 5 ? argv[4] : "32,128,256"), hiddens = csv_ints(argc >= 6 ? argv[5] : "1536,2048,4096,5120,8192");
  size_t maxe = 0;
  for (int R : rows) for (int D : hiddens) maxe = std::max(maxe, (size_t)R * D * 2);  // silu's input: 2d a row
  char* flush; cudaMalloc(&flush, 256 << 20);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0); printf("%s, %d SMs; a, b (, c): the trees in the order built\n", prop.name, prop.multiProcessorCount);
  void *x, *x0, *r, *r0, *w, *out;
  for (void** p : {&x, &x0, &r, &r0, &out}) cudaMalloc(p, maxe * 2);
  cudaMalloc(&w, 32768 * 2);
  std::vector<unsigned short> h(maxe);
  unsigned s = 12345;
  for (auto& v : h) v = random16<__half>(s, 4.0f);  // finite in both formats (fp16 bits of |x| < 2 read as bf16: tiny)
  cudaMemcpy(x0, h.data(), maxe * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(x, x0, maxe * 2, cudaMemcpyDeviceToDevice);
  for (auto& v : h) v = random16<__half>(s, 4.0f);
  cudaMemcpy(r0, h.data(), maxe * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(r, r0, maxe * 2, cudaMemcpyDeviceToDevice);
  cudaMemcpy(w, h.data(), std::min<size_t>(maxe, 32768) * 2, cudaMemcpyHostToDevice);
  const int places = argc >= 7 ? std::max(atoi(argv[6]), 1) : 1;  // buffer sets taken in turn (see the top)
  std::vector<void*> xs = {x}, rs = {r}, outs = {out};
  for (int p = 1; p < places; ++p) {
    void *spacer, *xp, *rp, *op;
    cudaMalloc(&spacer, (size_t)(1 + (s = s * 1103515245u + 12345u) % 8191) * 512);  // kept: never freed
    for (void** q : {&xp, &rp, &op}) cudaMalloc(q, maxe * 2);
    cudaMemcpy(xp, x0, maxe * 2, cudaMemcpyDeviceToDevice);
    cudaMemcpy(rp, r0, maxe * 2, cudaMemcpyDeviceToDevice);
    xs.push_back(xp), rs.push_back(rp), outs.push_back(op);
  }
  if (places > 1) printf("%d buffer sets, every tree's launches taking them in turn\n", places);
  const char* names[] = {"rmsnorm", "fused_add_rmsnorm", "silu_and_mul", "gelu_and_mul", "gelu_tanh_and_mul"};
  const char* keys[] = {"rms", "fused", "silu", "gelu", "gtanh"};  // OPS' names for them
  for (int fp16 = 0; fp16 < 2; ++fp16)
    for (int op = 0; op < 5; ++op)
      for (int D : hiddens)
        for (int R : rows) {
          if (ops.find(std::string(",") + keys[op] + ",") == std::string::npos ||
              (dts == "bf16" && fp16) || (dts == "fp16" && !fp16)) continue;
          const bool fused = op == 1;
          // a launch `on(p)` of buffer set p, run on the next set each call (one set: always the first)
          auto in_turn = [=](std::function<void(int)> on) {
            auto k = std::make_shared<int>(0);
            return std::function<void()>([=] { on((*k)++ % places); });
          };
          auto go = [=](LibEntry* fn) {
            return in_turn([=](int p) { fn(op, xs[p], fused ? rs[p] : nullptr, fused ? xs[p] : outs[p], w, R, D, fp16); });
          };
          // fused writes x and the residual in place: every launch reads what the last one wrote (same bytes moved)
          std::vector<LibEntry*> entries = {lib_a, lib_b};
#ifdef LIB_AB_C
          entries.push_back(lib_c);
#endif
          Variants vs;
          for (size_t t = 0; t < entries.size(); ++t) vs.push_back({std::string(1, char('a' + t)), go(entries[t])});
          const int64_t n16 = (int64_t)R * D / 8;
          if (fused && (int64_t)R * D % 8 == 0)
            vs.push_back({"cp", in_turn([=](int p) {
                             swap_copy<<<(n16 + 255) / 256, 256>>>((uint4*)xs[p], (uint4*)rs[p], n16);
                           })});
          std::vector<std::vector<unsigned short>> got(vs.size());
          printf("%s %dx%d %s\n", names[op], R, D, fp16 ? "fp16" : "bf16");
          time_variants(vs, flush, e0, e1, n, 2, [&](size_t v) -> std::string {
            if (vs[v].first == "cp") return "";
            // a fresh launch from the pristine inputs, its output kept for the bitwise comparison
            cudaMemcpy(x, x0, (size_t)R * D * (op >= 2 ? 4 : 2), cudaMemcpyDeviceToDevice);
            cudaMemcpy(r, r0, (size_t)R * D * 2, cudaMemcpyDeviceToDevice);
            cudaMemset(out, 0xff, (size_t)R * D * 2);
            entries[v](op, x, fused ? r : nullptr, fused ? x : out, w, R, D, fp16);  // the first set
            got[v].resize((size_t)R * D);
            cudaMemcpy(got[v].data(), fused ? x : out, got[v].size() * 2, cudaMemcpyDeviceToHost);
            if (v == 0) return "";
            size_t diff = 0;
            for (size_t k = 0; k < got[0].size(); ++k) diff += got[0][k] != got[v][k];
            char buf[64]; snprintf(buf, sizeof buf, "  %zu of %zu elements differ from a", diff, got[0].size());
            return buf;
          });
        }
  printf("err: %s\n", cudaGetErrorString(cudaGetLastError()));
}
