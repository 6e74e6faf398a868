// 25_short_tiles's driver: ch25::hgemm (FP16 inputs, the rule's choice of product and tile) and
// ch25::bgemm (BF16) first, then C^T's tiles of 64 rows at each width, alone and in clusters of
// two, and 24's of 128 rows (--variant all), each against cuBLAS in the same precision in the same
// process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch25 {
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

// 24's C^T = B^T A^T in tiles of 128 x BN, side by side ("_swap_side") or stacked.
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

// C^T = B^T A^T in tiles of 64 x BN, one consumer warpgroup, in clusters of CLUSTER stacked tiles
// (the entry point's: one).
template <int BN, int STAGES, int CLUSTER = 1>
gemm::Variant short_tile(const char* suffix) {
  const auto kernel = gemm_kernel<BN, STAGES, CLUSTER, 8, true, false, false, 0, true, true, __half, 64>;
  return gemm::warpgroup_variant<64, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, true, 8, true, false, false, true, 0, true, true,
                         true, __half, 64>,
             kernel, kernel, threads(64), smem_bytes<BN, STAGES, false, 64>(), suffix)
      .with("CLUSTER", CLUSTER);
}

// The first variant of each precision is the one ch25::hgemm (FP16) or ch25::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      short_tile<16, 22>("_swap"),
      short_tile<32, 18>("_swap"),
      short_tile<64, 13>("_swap"),
      short_tile<64, 13, 2>("_swap_c2"),
      swapped<16, 12, false>("_swap"),
      swapped<32, 10, false>("_swap"),
      swapped<64, 8, true>("_swap_side"),
      swapped<64, 8, false>("_swap_stacked"),
  };
}
}  // namespace ch25
