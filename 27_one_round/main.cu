// 27_one_round's driver: ch27::hgemm (FP16 inputs, the rule's choice of product, tile and
// cluster) and ch27::bgemm (BF16) first, then 128 x 64 tiles in pairs and alone, each with C
// through the TMA unit and from the registers (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch27 {
// The entry point: C^T where C has at most SWAP_ROWS rows, else the tile by the rule; one round of
// 128 x 64 tiles alone, C from the registers, where rows do not straddle (the report gives the
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

// C's tiles of 128 x 64 in clusters of CLUSTER stacked tiles, C through the TMA unit (TMA_STORE:
// 26's) or straight from the registers ("_regs"); "_c1": clusters of one.
template <int CLUSTER, bool TMA_STORE>
gemm::Variant narrow(const char* suffix) {
  constexpr int DEFER = TMA_STORE ? std::min(DEFERRED, 64 / C_CHUNK) : 0;
  const auto kernel =
      gemm_kernel<64, 8, CLUSTER, 8, true, false, TMA_STORE, DEFER, false, true, __half>;
  return gemm::warpgroup_variant<BM, 64, BK, 8>(
             gemm_launch<64, 8, CLUSTER, true, 8, true, false, TMA_STORE, true, DEFER>, kernel,
             kernel, threads(BM), smem_bytes<64, 8, TMA_STORE>(), suffix)
      .with("CLUSTER", CLUSTER)
      .with("TMA_STORE", TMA_STORE ? "true" : "false");
}

// The first variant of each precision is the one ch27::hgemm (FP16) or ch27::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      narrow<2, true>(""),
      narrow<2, false>("_regs"),
      narrow<1, true>("_c1"),
      narrow<1, false>("_c1_regs"),
  };
}
}  // namespace ch27
