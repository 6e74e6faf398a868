// Driver for 10_wgmma_tma: ch10::hgemm (FP16 inputs) first, then the configurations that show
// what each piece buys (--variant all), each against cuBLAS FP16 in the same process.
#include "variants.h"

#include "kernel.cu"

namespace ch10 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_c1" no
// cluster (each block copies its whole B tile), "_grid" one block per tile instead of persistent
// blocks, "_group0" tiles row by row, "_wait0" each k-tile's wgmmas finished before the next,
// "_release" the consumers' arrivals with release semantics at cluster scope, "_direct" C
// stored straight from the registers instead of through shared memory and TMA.
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true>
gemm::Variant tile(const char* suffix = "") {
  const std::string name = "fp16_128x" + std::to_string(BN) + "x64_s" + std::to_string(STAGES) +
                           suffix;
  // The launcher runs 09's default FP16 kernel where TMA cannot describe A or B (element path).
  return {name,
          gemm_launch<BN, STAGES, CLUSTER, PERSISTENT, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER,
                      TMA_STORE>,
          gemm::kernel_info(
              gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE>,
              THREADS, smem_bytes<BN, STAGES, TMA_STORE>()),
          gemm::kernel_info(ch09::gemm_kernel<__half, 128, 256, 32, 64, 64, 4, 2, true, false>,
                            256, ch09::smem_bytes<__half, 128, 256, 32, 4>())};
}

// The first variant is the one ch10::hgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      tile<256, 4>(),
      tile<256, 4, 1>("_c1"),
      tile<256, 4, 1, false>("_c1_grid"),
      tile<256, 4, 2, true, 0>("_group0"),
      tile<256, 4, 2, true, 8, false>("_wait0"),
      tile<256, 4, 2, true, 8, true, true>("_release"),
      tile<256, 4, 2, true, 8, true, false, false>("_direct"),
      tile<256, 3>(),
      tile<128, 4>(),
      tile<128, 6>(),
      tile<256, 4, 2, true, 16>("_group16"),
      tile<256, 4, 2, true, 4>("_group4"),
      tile<256, 4, 2, false>("_grid"),
  };
}
}  // namespace ch10

GEMM_CHAPTER_MAIN("10_wgmma_tma", ch10)
