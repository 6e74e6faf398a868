// 18_deferred_store's driver: ch18::hgemm (FP16 inputs) and ch18::bgemm (BF16) first, then the
// configurations that show what its pieces buy (--variant all), each against cuBLAS in the same
// precision in the same process.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch18 {
// Named "fp16_128xBNx64_sSTAGES" and a suffix for what differs from the default: "_direct" C
// stored straight from the registers instead of through shared memory and TMA, "_c1" no cluster,
// "_nostreamk" whole tiles only (16 without its split of K), "_nodefer" every chunk of C stored
// in the epilogue (17's), "_defer2" 2 chunks of 8 deferred.
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true,
          bool STREAM_K = true, int DEFER = DEFERRED, class T = __half>
gemm::Variant tile(const char* suffix = "") {
  const auto kernel =
      gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE, DEFER, T>;
  // One kernel for every shape: A or B that TMA cannot read are copied first, not run elsewhere.
  return gemm::warpgroup_variant<BM, BN, BK, STAGES>(
             gemm_launch<BN, STAGES, CLUSTER, PERSISTENT, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER,
                         TMA_STORE, STREAM_K, DEFER, T>,
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

// The first variant of each precision is the one ch18::hgemm (FP16) or ch18::bgemm (BF16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<256, 4>(),
      tile<256, 4, 2, true, 8, true, false, true, true, DEFERRED, __nv_bfloat16>(),
      tile<256, 4, 2, true, 8, true, false, false>("_direct"),
      tile<256, 4, 1>("_c1"),
      tile<128, 6>(),
      tile<256, 4, 2, true, 8, true, false, true, false>("_nostreamk"),
      tile<256, 4, 2, true, 8, true, false, true, true, 0>("_nodefer"),
      tile<256, 4, 2, true, 8, true, false, true, true, 2>("_defer2"),
  };
}
}  // namespace ch18
