// 20_skinny's driver: ch20::hgemm (FP16 inputs: C^T = B^T A^T where C has at most 128 rows,
// otherwise 19's width by its rule) and ch20::bgemm (BF16) first, then each width of the transposed
// product on its own (--variant all), each against cuBLAS in the same precision in the same
// process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch20 {
// The entry point: C^T where C has at most SWAP_ROWS rows, else the width by 19's rule (the report
// gives the resources of the kernel that ran).
template <class T = __half>
gemm::Variant rule() {
  constexpr std::size_t smem = smem_bytes<256, 4, true>();
  const auto kernel = gemm_kernel<256, 4, 2, 8, true, false, true, DEFERRED, false, T>;
  const auto text = [](double v) {
    char t[32];
    std::snprintf(t, sizeof t, "%g", v);
    return std::string(t);
  };
  std::string widths, costs;
  for (int w = 0; w < 4; ++w) {
    widths += (w ? "," : "") + std::to_string(WIDTHS[w]);
    costs += (w ? "," : "") + text(KTILE_COST[w]);
  }
  const char* name = std::is_same_v<T, __half> ? "fp16_128xW_x64_rule" : "bf16_128xW_x64_rule";
  return gemm::Variant(name, gemm_choose<T>, gemm::kernel_info(kernel, THREADS, smem),
                       gemm::kernel_info(kernel, THREADS, smem))
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BK))
      .with("CLUSTER", 2)
      .with(GEMM_PARAM(MIN_GAIN))
      .with("WIDTHS", widths.c_str())
      .with("KTILE_COST", costs.c_str())
      .with("STREAM_K_TAIL", text(STREAM_K_TAIL).c_str())
      .with("MARGIN", text(MARGIN).c_str())
      .with(GEMM_PARAM(SWAP_ROWS));
}

// C^T = B^T A^T in tiles of 128 x BN ("_swap"), C straight from the registers.
template <int BN, int STAGES, int CLUSTER = 2, bool STREAM_K = true>
gemm::Variant swapped(const char* suffix = "_swap") {
  const auto kernel = gemm_kernel<BN, STAGES, CLUSTER, 8, true, false, false, 0, true>;
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, true, 8, true, false, false, STREAM_K, 0, true>,
             kernel, kernel, THREADS, smem_bytes<BN, STAGES, false>(), suffix)
      .with(GEMM_PARAM(CLUSTER))
      .with(GEMM_PARAM(STREAM_K))
      .with(GEMM_PARAM(MIN_GAIN));
}

// The first variant of each precision is the one ch20::hgemm (FP16) or ch20::bgemm (BF16) runs;
// --variant all runs every one: each width of the transposed product on its own, and 64 columns
// with whole tiles only ("_swap_nostreamk": 32 clusters busy at N = 8192, where the entry point
// cuts each tile in two).
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      swapped<16, 12>(),
      swapped<32, 10>(),
      swapped<64, 8>(),
      swapped<64, 8, 2, false>("_swap_nostreamk"),
  };
}
}  // namespace ch20
