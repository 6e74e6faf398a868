// 07_double_buffer's driver: the default and the configurations tried while tuning for the H200
// (--variant all), including 03's three.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch07 {
// EARLY_BARRIER false: each k-tile's barrier after its last step ("_barrier_last"); FRAG_BUFS 2:
// fragments also double-buffered in registers ("_frags2"); SPLIT_K false: one block per tile of C
// at every size ("_nosplit"). The default (early barrier, one set of fragments, split K for a
// small C) has no suffix.
template <int BM, int BN, int BK, int TM, int TN, bool EARLY_BARRIER = true, int FRAG_BUFS = 1,
          bool SPLIT_K = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::thread_tile_variant<BM, BN, BK, TM, TN>(
             gemm_launch<BM, BN, BK, TM, TN, EARLY_BARRIER, FRAG_BUFS, SPLIT_K>,
             gemm_kernel<BM, BN, BK, TM, TN, EARLY_BARRIER, FRAG_BUFS, true>,
             gemm_kernel<BM, BN, BK, TM, TN, EARLY_BARRIER, FRAG_BUFS, false>, suffix)
      .with(GEMM_PARAM(EARLY_BARRIER))
      .with(GEMM_PARAM(FRAG_BUFS))
      .with(GEMM_PARAM(SPLIT_K));
}

// The first variant is the one ch07::sgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<128, 128, 8, 8, 8>(),
      tile<128, 128, 8, 8, 8, false>("_barrier_last"),
      tile<128, 128, 8, 8, 8, true, 2>("_frags2"),
      tile<128, 128, 8, 8, 8, true, 1, false>("_nosplit"),
      tile<128, 128, 16, 8, 8>(),
      tile<128, 128, 16, 8, 8, false>("_barrier_last"),
      tile<128, 256, 8, 8, 16>(),
      tile<256, 128, 8, 16, 8>(),
      tile<256, 128, 8, 16, 8, true, 2>("_frags2"),
      tile<128, 256, 16, 8, 16>(),
      tile<64, 64, 8, 4, 4>(),
      tile<64, 128, 8, 8, 8>(),
  };
}
}  // namespace ch07
