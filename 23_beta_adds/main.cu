// 23_beta_adds's driver: ch23::hgemm (FP16 inputs, the rule's choice of product and tile) and
// ch23::bgemm (BF16) first, then 22's 192 x 192 tile with 17's stream-K and with whole tiles only
// (--variant all), each against cuBLAS in the same precision in the same process. --beta sets
// beta: this chapter's change.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch23 {
// The entry point: C^T where C has at most SWAP_ROWS rows, else the tile by the rule (the report
// gives the resources of the kernel that ran).
template <class T = __half>
gemm::Variant rule() {
  constexpr std::size_t smem = smem_bytes<256, 4, true>();
  const auto kernel = gemm_kernel<256, 4, 2, 8, true, false, true, DEFERRED, false, true, T>;
  const auto text = [](double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", v);
    return std::string(t);
  };
  std::string tiles, costs;
  for (int w = 0; w < SHAPES; ++w) {
    tiles += (w ? "," : "") + std::to_string(HEIGHTS[w]) + "x" + std::to_string(WIDTHS[w]);
    costs += (w ? "," : "") + text(KTILE_COST[w]);
  }
  const char* name = std::is_same_v<T, __half> ? "fp16_rule" : "bf16_rule";
  return gemm::Variant(name, gemm_choose<T>, gemm::kernel_info(kernel, threads(BM), smem),
                       gemm::kernel_info(kernel, threads(BM), smem))
      .with(GEMM_PARAM(BK))
      .with("CLUSTER", 2)
      .with(GEMM_PARAM(MIN_GAIN))
      .with("TILES", tiles.c_str())
      .with(GEMM_PARAM(TALL_STAGES))
      .with("KTILE_COST", costs.c_str())
      .with("STREAM_K_TAIL", text(STREAM_K_TAIL).c_str())
      .with("MARGIN", text(MARGIN).c_str())
      .with(GEMM_PARAM(SWAP_ROWS));
}

// One tile of TM rows and BN columns, with stream-K or with whole tiles only ("_nostreamk": at
// 4096^3 it gives the cost of a k-tile, README).
template <int TM, int BN, int STAGES, bool STREAM_K = true>
gemm::Variant tile(const char* suffix = "") {
  constexpr int DEFER = TM == BM ? std::min(DEFERRED, BN / C_CHUNK) : TALL_DEFER;
  const auto kernel =
      gemm_kernel<BN, STAGES, 2, 8, true, false, true, DEFER, false, true, __half, TM>;
  return gemm::warpgroup_variant<TM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, 2, true, 8, true, false, true, STREAM_K, DEFER, false, true,
                         true, __half, TM>,
             kernel, kernel, threads(TM), smem_bytes<BN, STAGES, true, TM>(), suffix)
      .with("DEFER", DEFER);
}

// The first variant of each precision is the one ch23::hgemm (FP16) or ch23::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      tile<192, 192, TALL_STAGES>(),
      tile<192, 192, TALL_STAGES, false>("_nostreamk"),
  };
}
}  // namespace ch23
