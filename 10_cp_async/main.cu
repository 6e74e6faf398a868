// 10_cp_async's driver: ch10::sgemm (TF32) and ch10::hgemm (FP16 inputs) first, then the other
// configurations tried on the H200 (--variant all), each against cuBLAS in the same precision.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch10 {
// EARLY_BARRIER: each k-tile's barrier before its last step's MMAs; FRAG_BUFS 2: fragments also
// double-buffered in registers; SWIZZLE false: the plain shared layout ("_noswizzle"). A suffix
// names what sets a variant apart from its precision's default: TF32 barrier after the last step
// and one set of fragments (the template's defaults), FP16 barrier before the last step and
// fragments double-buffered ("_barrier_early_frags2" and "_barrier_late_frags1" say which).
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool SWIZZLE = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::warp_tile_variant<T, BM, BN, BK, WM, WN, STAGES>(
             gemm_launch<T, BM, BN, BK, WM, WN, STAGES, EARLY_BARRIER, FRAG_BUFS, true, SWIZZLE>,
             gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, true>,
             gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, false>,
             smem_bytes<T, BM, BN, BK, STAGES>(), suffix)
      .with(GEMM_PARAM(STAGES))
      .with(GEMM_PARAM(EARLY_BARRIER))
      .with(GEMM_PARAM(FRAG_BUFS))
      .with("SPLIT_K", 1)
      .with(GEMM_PARAM(SWIZZLE));
}

// The first variant of each precision is the one ch10::sgemm (TF32) or ch10::hgemm (FP16) runs;
// --variant all runs every one. tf32_128x128x16_w64x64_s2 and
// fp16_128x128x32_w64x64_s2_barrier_late_frags1 are 09's defaults with a ring of two stages in
// place of the register prefetch: the same tiles, barrier and fragments.
std::vector<gemm::Variant> variants() {
  return {
      tile<float, 128, 128, 32, 64, 64, 3>(),
      tile<__half, 128, 256, 32, 64, 64, 4, true, 2>(),
      tile<float, 128, 128, 16, 64, 64, 2>(),
      tile<float, 128, 128, 32, 64, 64, 3, true, 2>("_barrier_early_frags2"),
      tile<float, 128, 128, 32, 64, 64, 3, false, 1, false>("_noswizzle"),
      tile<float, 128, 128, 32, 64, 64, 4>(),
      tile<float, 128, 128, 16, 64, 64, 4, true, 2>("_barrier_early_frags2"),
      tile<float, 128, 256, 32, 64, 64, 3>(),
      tile<float, 128, 128, 32, 64, 32, 3, true, 2>("_barrier_early_frags2"),
      tile<__half, 128, 128, 32, 64, 64, 2>("_barrier_late_frags1"),
      tile<__half, 128, 256, 32, 64, 64, 4>("_barrier_late_frags1"),
      tile<__half, 128, 256, 32, 64, 64, 4, true, 2, false>("_noswizzle"),
      tile<__half, 128, 256, 32, 64, 64, 3, true, 2>(),
      tile<__half, 128, 256, 64, 64, 64, 4, true, 2>(),
      tile<__half, 256, 128, 32, 64, 64, 4, true, 2>(),
      tile<__half, 128, 128, 32, 64, 64, 4, true, 2>(),
      tile<__half, 128, 64, 32, 64, 32, 4, true, 2>(),
  };
}
}  // namespace ch10
