// 26_clusters_of_four's driver: ch26::hgemm (FP16 inputs, the rule's choice of product, tile and
// cluster) and ch26::bgemm (BF16) first, then each of C's tiles of 128 x 256, 128 x 192 and
// 192 x 192 in pairs and in clusters of four (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch26 {
// The entry point: C^T where C has at most SWAP_ROWS rows, else the tile by the rule, 128 x 256 in
// clusters of four where rows straddle L2's lines and they cost less (the report gives the
// resources of the kernel that ran).
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
      .with(GEMM_PARAM(SWAP_ROWS))
      .with("FOUR_KTILE_COST", text(FOUR_KTILE_COST).c_str());
}

// C's tiles of TM x BN in clusters of CLUSTER stacked tiles, which share the B tile ("_c4": four).
template <int TM, int BN, int CLUSTER>
gemm::Variant stacked(const char* suffix) {
  constexpr int DEFER = TM == BM ? std::min(DEFERRED, BN / C_CHUNK) : TALL_DEFER;
  constexpr int STAGES = TM == BM ? 4 : TALL_STAGES;
  const auto kernel =
      gemm_kernel<BN, STAGES, CLUSTER, 8, true, false, true, DEFER, false, true, __half, TM>;
  return gemm::warpgroup_variant<TM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, true, 8, true, false, true, true, DEFER, false, true,
                         true, __half, TM>,
             kernel, kernel, threads(TM), smem_bytes<BN, STAGES, true, TM>(), suffix)
      .with("CLUSTER", CLUSTER);
}

// The first variant of each precision is the one ch26::hgemm (FP16) or ch26::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      stacked<BM, 256, 2>(""),
      stacked<BM, 256, 4>("_c4"),
      stacked<BM, 192, 2>(""),
      stacked<BM, 192, 4>("_c4"),
      stacked<192, 192, 2>(""),
      stacked<192, 192, 4>("_c4"),
  };
}
}  // namespace ch26
