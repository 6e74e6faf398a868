// 19_tile_choice's driver: ch19::hgemm (FP16 inputs, the width its rule picks) and ch19::bgemm
// (BF16) first, then each width on its own and the configurations that show what the pieces buy
// (--variant all), each against cuBLAS in the same precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch19 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix ("_nostreamk": whole tiles only).
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true,
          bool STREAM_K = true, int DEFER = std::min(DEFERRED, BN / C_CHUNK)>
gemm::Variant tile(const char* suffix = "") {
  const auto kernel =
      gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE, DEFER>;
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, PERSISTENT, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER,
                         TMA_STORE, STREAM_K, DEFER>,
             kernel, kernel, THREADS, smem_bytes<BN, STAGES, TMA_STORE>(), suffix)
      .with(GEMM_PARAM(CLUSTER))
      .with(GEMM_PARAM(PERSISTENT))
      .with(GEMM_PARAM(GROUP))
      .with(GEMM_PARAM(WAIT_PREVIOUS))
      .with(GEMM_PARAM(RELEASE_CLUSTER))
      .with(GEMM_PARAM(TMA_STORE))
      .with(GEMM_PARAM(STREAM_K))
      .with(GEMM_PARAM(MIN_GAIN))
      .with(GEMM_PARAM(C_CHUNK))
      .with(GEMM_PARAM(DEFER))
      .with(GEMM_PARAM(PRODUCER_REGS))
      .with(GEMM_PARAM(CONSUMER_REGS));
}

// The entry point: the width by the rule (the report gives the resources of the kernel that ran).
template <class T = __half>
gemm::Variant rule() {
  constexpr std::size_t smem = smem_bytes<256, 4, true>();
  const auto kernel = gemm_kernel<256, 4, 2, 8, true, false, true, DEFERRED, T>;
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
      .with("MARGIN", text(MARGIN).c_str());
}

// The first variant of each precision is the one ch19::hgemm (FP16) or ch19::bgemm (BF16) runs;
// --variant all runs every one: each width the rule chooses from, on its own, with 17's stream-K
// and with whole tiles only ("_nostreamk": at 4096^3 these give the costs of a k-tile, README).
std::vector<gemm::Variant> variants() {
  return {
      rule(),
      rule<__nv_bfloat16>(),
      tile<256, 4>(),
      tile<192, 4>(),
      tile<128, 6>(),
      tile<64, 8>(),
      tile<256, 4, 2, true, 8, true, false, true, false>("_nostreamk"),
      tile<192, 4, 2, true, 8, true, false, true, false>("_nostreamk"),
      tile<128, 6, 2, true, 8, true, false, true, false>("_nostreamk"),
      tile<64, 8, 2, true, 8, true, false, true, false>("_nostreamk"),
  };
}
}  // namespace ch19
