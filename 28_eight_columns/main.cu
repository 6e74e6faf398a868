// 28_eight_columns's driver: ch28::hgemm (FP16 inputs, the rule's choice of product, tile and
// cluster) and ch28::bgemm (BF16) first, then C^T's tiles of 64 rows by 8, 16, 32 and 64 (8 and 16
// in BF16 too; --variant all), each against cuBLAS in the same precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch28 {
// The entry point: C^T where C has at most SWAP_ROWS rows (its tiles half as wide where the wider
// would be cut along K), else the tile by the rule (the report gives the resources of the kernel
// that ran).
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

// C^T in tiles of 64 x BN, one consumer warpgroup, clusters of one (BN = 8: this chapter's; 16, 32
// and 64: 25's).
template <int BN, int STAGES, class T>
gemm::Variant thin() {
  const auto kernel = gemm_kernel<BN, STAGES, 1, 8, true, false, false, 0, true, true, T, 64>;
  return gemm::warpgroup_variant<64, BN, BK, STAGES>(
      gemm_launch<BN, STAGES, 1, true, 8, true, false, false, true, 0, true, true, true, T, 64>,
      kernel, kernel, threads(64), smem_bytes<BN, STAGES, false, 64>(), "_swap");
}

// The first variant of each precision is the one ch28::hgemm (FP16) or ch28::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      thin<8, 24, __half>(),
      thin<16, 22, __half>(),
      thin<8, 24, __nv_bfloat16>(),
      thin<16, 22, __nv_bfloat16>(),
      thin<32, 18, __half>(),
      thin<64, 13, __half>(),
  };
}
}  // namespace ch28
