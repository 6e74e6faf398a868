// 15_clusters's driver: ch15::hgemm (FP16 inputs) and ch15::bgemm (BF16) first, then the
// configurations that show what its pieces buy (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch15 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_c1" no
// cluster (each block copies its whole B tile), "_c1_grid" neither clusters nor persistent
// blocks, "_grid" one cluster per work unit, "_release" the consumers' arrivals with release
// semantics at cluster scope, "_nosplit" K never split.
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool SPLIT_K = true,
          class T = __half>
gemm::Variant tile(const char* suffix = "") {
  const auto kernel = gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, T>;
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, PERSISTENT, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER,
                         SPLIT_K, T>,
             kernel, kernel, THREADS, smem_bytes<BN, STAGES>(), suffix)
      .with(GEMM_PARAM(CLUSTER))
      .with(GEMM_PARAM(PERSISTENT))
      .with(GEMM_PARAM(GROUP))
      .with(GEMM_PARAM(WAIT_PREVIOUS))
      .with(GEMM_PARAM(RELEASE_CLUSTER))
      .with(GEMM_PARAM(SPLIT_K))
      .with(GEMM_PARAM(PRODUCER_REGS))
      .with(GEMM_PARAM(CONSUMER_REGS));
}

// The first variant of each precision is the one ch15::hgemm (FP16) or ch15::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<256, 4>(),
      tile<256, 4, 2, true, 8, true, false, true, __nv_bfloat16>(),
      tile<256, 4, 1>("_c1"),
      tile<256, 4, 1, false>("_c1_grid"),
      tile<256, 4, 2, false>("_grid"),
      tile<256, 4, 2, true, 8, true, true>("_release"),
      tile<128, 6>(),
      tile<256, 4, 2, true, 8, true, false, false>("_nosplit"),
  };
}
}  // namespace ch15
