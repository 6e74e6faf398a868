// 09_mma_sync's driver: ch09::sgemm (TF32) and ch09::hgemm (FP16 inputs) first, then the other
// configurations tried on the H200 (--variant all), each against cuBLAS in the same precision.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch09 {
// EARLY_BARRIER: each k-tile's barrier before its last step's MMAs ("_barrier_early");
// FRAG_BUFS 2: fragments also double-buffered in registers ("_frags2"); SWIZZLE false: the plain
// shared layout, rows unpadded ("_noswizzle"). The defaults (barrier after the last step, one set
// of fragments, split K, swizzled) have no suffix. fp16_128x256x32_w64x64_s2_barrier_early_frags2
// is 10's FP16 default with 08's two stages and register prefetch in place of the cp.async ring.
template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool SWIZZLE = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::warp_tile_variant<T, BM, BN, BK, WM, WN, 2>(
             gemm_launch<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, true, SWIZZLE>,
             gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, true>,
             gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, false>, 0,
             suffix)
      .with(GEMM_PARAM(EARLY_BARRIER))
      .with(GEMM_PARAM(FRAG_BUFS))
      .with("SPLIT_K", 1)
      .with(GEMM_PARAM(SWIZZLE));
}

// The first variant of each precision is the one ch09::sgemm (TF32) or ch09::hgemm (FP16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<float, 128, 128, 16, 64, 64>(),
      tile<__half, 128, 128, 32, 64, 64>(),
      tile<float, 128, 128, 16, 64, 64, false, 1, false>("_noswizzle"),
      tile<float, 128, 128, 16, 64, 64, true>("_barrier_early"),
      tile<float, 128, 128, 16, 64, 64, false, 2>("_frags2"),
      tile<float, 128, 256, 16, 64, 64>(),
      tile<float, 128, 128, 16, 64, 32>(),
      tile<__half, 128, 128, 32, 64, 64, false, 1, false>("_noswizzle"),
      tile<__half, 128, 128, 32, 64, 64, true>("_barrier_early"),
      tile<__half, 128, 128, 32, 64, 64, false, 2>("_frags2"),
      tile<__half, 128, 256, 32, 64, 64>(),
      tile<__half, 128, 256, 32, 64, 64, true, 2>("_barrier_early_frags2"),
      tile<__half, 128, 128, 32, 64, 32>(),
  };
}
}  // namespace ch09
