// 12_tma_mbarrier's driver: ch12::hgemm (FP16 inputs) and ch12::bgemm (BF16) first, then the
// configurations that show what its pieces buy (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch12 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_wait0" each
// k-tile's wgmmas finished before the next is issued, "_nosplit" K never split.
template <int BN, int STAGES, bool WAIT_PREVIOUS = true, bool SPLIT_K = true, class T = __half>
gemm::Variant tile(const char* suffix = "") {
  const auto kernel = gemm_kernel<BN, STAGES, WAIT_PREVIOUS, T>;
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, WAIT_PREVIOUS, SPLIT_K, T>, kernel, kernel, THREADS,
             smem_bytes<BN, STAGES>(), suffix)
      .with(GEMM_PARAM(WAIT_PREVIOUS))
      .with(GEMM_PARAM(SPLIT_K));
}

// The first variant of each precision is the one ch12::hgemm (FP16) or ch12::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<256, 4>(),
      tile<256, 4, true, true, __nv_bfloat16>(),
      tile<256, 4, false>("_wait0"),
      tile<256, 3>(),
      tile<128, 4>(),
      tile<128, 6>(),
      tile<256, 4, true, false>("_nosplit"),
  };
}
}  // namespace ch12
