// 24_side_by_side's driver: ch24::hgemm (FP16 inputs, the rule's choice of product and tile) and
// ch24::bgemm (BF16) first, then tiles of 128 x 64 side by side and stacked, of C (with stream-K
// and with whole tiles only, beside 128 x 256's) and of C^T (--variant all), each against cuBLAS
// in the same precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch24 {
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

// Tiles of 128 x BN of C, side by side ("_side") or stacked ("_stacked": 23's), with stream-K or
// with whole tiles only ("_nostreamk": at 4096^3 the cost of a k-tile, README); the entry point
// keeps C's tiles stacked.
template <int BN, int STAGES, bool SIDE, bool STREAM_K = true>
gemm::Variant tile(const char* suffix) {
  constexpr int DEFER = std::min(DEFERRED, BN / C_CHUNK);
  const auto kernel =
      gemm_kernel<BN, STAGES, 2, 8, true, false, true, DEFER, false, true, __half, BM, SIDE>;
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, 2, true, 8, true, false, true, STREAM_K, DEFER, false, true,
                         true, __half, BM, SIDE>,
             kernel, kernel, threads(BM), smem_bytes<BN, STAGES, true>(), suffix)
      .with("SIDE", SIDE ? "true" : "false")
      .with("STREAM_K", STREAM_K ? "true" : "false");
}

// C^T = B^T A^T in tiles of 128 x BN, side by side ("_swap_side") or stacked ("_swap_stacked").
template <int BN, int STAGES, bool SIDE>
gemm::Variant swapped(const char* suffix) {
  const auto kernel =
      gemm_kernel<BN, STAGES, 2, 8, true, false, false, 0, true, true, __half, BM, SIDE>;
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, 2, true, 8, true, false, false, true, 0, true, true, true,
                         __half, BM, SIDE>,
             kernel, kernel, threads(BM), smem_bytes<BN, STAGES, false>(), suffix)
      .with("SIDE", SIDE ? "true" : "false");
}

// The first variant of each precision is the one ch24::hgemm (FP16) or ch24::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      tile<64, 8, true>("_side"),
      tile<64, 8, false>("_stacked"),
      tile<64, 8, true, false>("_side_nostreamk"),
      tile<64, 8, false, false>("_stacked_nostreamk"),
      tile<256, 4, false, false>("_nostreamk"),
      swapped<64, 8, true>("_swap_side"),
      swapped<64, 8, false>("_swap_stacked"),
  };
}
}  // namespace ch24
