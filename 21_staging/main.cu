// 21_staging's driver: ch21::hgemm (FP16 inputs, 20's choice of product and width) and ch21::bgemm
// (BF16) first, then 256 columns with and without this chapter's staging and row stores (--variant
// all), each against cuBLAS in the same precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch21 {
// The entry point: C^T where C has at most SWAP_ROWS rows, else the width by 19's rule (the report
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

// 256 columns (19's widest, its rule's width at 4095^3): STAGE, the copies by stage_kernel (else
// cudaMemcpy2DAsync); ROWS, C's unaligned rows from the buffers (else from the registers).
template <bool STAGE, bool ROWS>
gemm::Variant wide(const char* suffix) {
  const auto kernel = gemm_kernel<256, 4, 2, 8, true, false, true, DEFERRED, false, ROWS>;
  return gemm::warpgroup_variant<BM, 256, BK, 4>(
             gemm_launch<256, 4, 2, true, 8, true, false, true, true, DEFERRED, false, STAGE, ROWS>,
             kernel, kernel, THREADS, smem_bytes<256, 4, true>(), suffix)
      .with(GEMM_PARAM(STAGE))
      .with(GEMM_PARAM(ROWS));
}

// The first variant of each precision is the one ch21::hgemm (FP16) or ch21::bgemm (BF16) runs;
// --variant all runs every one: 256 columns with both pieces of this chapter, with the staging only
// ("_stage": C from the registers, 20's) and with neither ("_memcpy": 20's kernel at 256 columns).
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      wide<true, true>(""),
      wide<true, false>("_stage"),
      wide<false, false>("_memcpy"),
  };
}
}  // namespace ch21
