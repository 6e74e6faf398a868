// 09_mma_sync's driver: ch09::sgemm (TF32) and ch09::hgemm (FP16 inputs) first, then the other
// configurations tried on the H200 (--variant all), each against cuBLAS in the same precision.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch09 {
// FRAG_BUFS 1: fragments loaded step by step ("_frags1"); SWIZZLE false: the unswizzled shared
// layout ("_noswizzle"). The defaults (fragments double-buffered, swizzled, split K) have no
// suffix.
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, int FRAG_BUFS = 2,
          bool SWIZZLE = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::warp_tile_variant<T, BM, BN, BK, WM, WN, STAGES>(
             gemm_launch<T, BM, BN, BK, WM, WN, STAGES, FRAG_BUFS, SWIZZLE>,
             gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, FRAG_BUFS, SWIZZLE, true>,
             gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, FRAG_BUFS, SWIZZLE, false>,
             smem_bytes<T, BM, BN, BK, STAGES>(), suffix)
      .with(GEMM_PARAM(STAGES))
      .with(GEMM_PARAM(FRAG_BUFS))
      .with(GEMM_PARAM(SWIZZLE))
      .with("SPLIT_K", 1);
}

// The first variant of each precision is the one ch09::sgemm (TF32) or ch09::hgemm (FP16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<float, 128, 128, 32, 64, 64, 3>(),
      tile<__half, 128, 256, 32, 64, 64, 4>(),
      tile<float, 128, 128, 32, 64, 64, 3, 1>("_frags1"),
      tile<float, 128, 128, 32, 64, 64, 3, 2, false>("_noswizzle"),
      tile<float, 128, 128, 32, 64, 64, 4>(),
      tile<float, 128, 256, 32, 64, 64, 3, 1>("_frags1"),
      tile<float, 128, 128, 32, 64, 32, 3>(),
      tile<__half, 128, 256, 32, 64, 64, 4, 1>("_frags1"),
      tile<__half, 128, 256, 32, 64, 64, 4, 2, false>("_noswizzle"),
      tile<__half, 128, 256, 32, 64, 64, 3>(),

      tile<__half, 128, 256, 64, 64, 64, 4>(),
      tile<__half, 256, 128, 32, 64, 64, 4>(),
      tile<__half, 128, 128, 32, 64, 64, 4>(),
      tile<__half, 128, 64, 32, 64, 32, 4>(),
  };
}
}  // namespace ch09
