// Driver for 07_double_buffer: the default and the configurations tried while tuning for the
// H200 (--variant all), including 03's three.
#include "variants.h"

#include "kernel.cu"

namespace ch07 {
// OVERLAP 0: each k-tile's barrier after its last step ("_barrier_last"); 2: fragments also
// double-buffered in registers ("_frags2"); SPLIT_K false: one block per tile of C at every size
// ("_nosplit"). The default (OVERLAP 1, split K for small C) has no suffix.
template <int BM, int BN, int BK, int TM, int TN, int OVERLAP = 1, bool SPLIT_K = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::thread_tile_variant<BM, BN, BK, TM, TN>(
      sgemm_launch<BM, BN, BK, TM, TN, OVERLAP, SPLIT_K>,
      sgemm_kernel<BM, BN, BK, TM, TN, OVERLAP, true>,
      sgemm_kernel<BM, BN, BK, TM, TN, OVERLAP, false>, suffix);
}

// The first variant is the one ch07::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      tile<128, 128, 8, 8, 8>(),
      tile<128, 128, 8, 8, 8, 0>("_barrier_last"),
      tile<128, 128, 8, 8, 8, 2>("_frags2"),
      tile<128, 128, 8, 8, 8, 1, false>("_nosplit"),
      tile<128, 128, 16, 8, 8>(),
      tile<128, 128, 16, 8, 8, 0>("_barrier_last"),
      tile<128, 256, 8, 8, 16>(),
      tile<256, 128, 8, 16, 8>(),
      tile<256, 128, 8, 16, 8, 2>("_frags2"),
      tile<128, 256, 16, 8, 16>(),
      tile<64, 64, 8, 4, 4>(),
      tile<64, 128, 8, 8, 8>(),
  };
}
}  // namespace ch07

GEMM_CHAPTER_MAIN("07_double_buffer", ch07)
