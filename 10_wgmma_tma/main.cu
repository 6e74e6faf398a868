// 10_wgmma_tma's driver: ch10::hgemm (FP16 inputs) first, then the configurations that show what
// each piece buys (--variant all), each against cuBLAS FP16 in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch10 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_c1" no
// cluster (each block copies its whole B tile), "_grid" one block per tile instead of persistent
// blocks, "_group0" tiles row by row, "_wait0" each k-tile's wgmmas finished before the next,
// "_release" the consumers' arrivals with release semantics at cluster scope, "_direct" C
// stored straight from the registers instead of through shared memory and TMA, "_nosplit" K
// never split (one work unit per tile of C however few tiles there are).
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true,
          bool SPLIT_K = true>
gemm::Variant tile(const char* suffix = "") {
  const std::string name =
      "fp16_128x" + std::to_string(BN) + "x64_s" + std::to_string(STAGES) + suffix;
  const gemm::KernelInfo kernel = gemm::kernel_info(
      gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE>, THREADS,
      smem_bytes<BN, STAGES, TMA_STORE>());
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::Variant(name,
                       gemm_launch<BN, STAGES, CLUSTER, PERSISTENT, GROUP, WAIT_PREVIOUS,
                                   RELEASE_CLUSTER, TMA_STORE, SPLIT_K>,
                       kernel, kernel)
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BN))
      .with(GEMM_PARAM(BK))
      .with(GEMM_PARAM(STAGES))
      .with(GEMM_PARAM(CLUSTER))
      .with(GEMM_PARAM(PERSISTENT))
      .with(GEMM_PARAM(GROUP))
      .with(GEMM_PARAM(WAIT_PREVIOUS))
      .with(GEMM_PARAM(RELEASE_CLUSTER))
      .with(GEMM_PARAM(TMA_STORE))
      .with(GEMM_PARAM(SPLIT_K))
      .with(GEMM_PARAM(C_CHUNK))
      .with(GEMM_PARAM(PRODUCER_REGS))
      .with(GEMM_PARAM(CONSUMER_REGS));
}

// The first variant is the one ch10::hgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
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
      tile<256, 4, 2, true, 8, true, false, true, false>("_nosplit"),
  };
}
}  // namespace ch10
