// 14_persistent's driver: ch14::hgemm (FP16 inputs) and ch14::bgemm (BF16) first, then the
// configurations that show what its pieces buy (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch14 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_grid" one
// block per work unit instead of persistent blocks, "_groupG" GROUP rows of tiles at a time
// ("_group0": row by row), "_nosplit" K never split.
template <int BN, int STAGES, bool PERSISTENT = true, int GROUP = 8, bool WAIT_PREVIOUS = true,
          bool SPLIT_K = true, class T = __half>
gemm::Variant tile(const char* suffix = "") {
  const auto kernel = gemm_kernel<BN, STAGES, GROUP, WAIT_PREVIOUS, T>;
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, PERSISTENT, GROUP, WAIT_PREVIOUS, SPLIT_K, T>, kernel, kernel,
             THREADS, smem_bytes<BN, STAGES>(), suffix)
      .with(GEMM_PARAM(PERSISTENT))
      .with(GEMM_PARAM(GROUP))
      .with(GEMM_PARAM(WAIT_PREVIOUS))
      .with(GEMM_PARAM(SPLIT_K))
      .with(GEMM_PARAM(PRODUCER_REGS))
      .with(GEMM_PARAM(CONSUMER_REGS));
}

// The first variant of each precision is the one ch14::hgemm (FP16) or ch14::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<256, 4>(),
      tile<256, 4, true, 8, true, true, __nv_bfloat16>(),
      tile<256, 4, false>("_grid"),
      tile<256, 4, true, 0>("_group0"),
      tile<256, 4, true, 4>("_group4"),
      tile<256, 4, true, 16>("_group16"),
      tile<128, 6>(),
      tile<256, 4, true, 8, true, false>("_nosplit"),
  };
}
}  // namespace ch14
