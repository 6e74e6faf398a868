// 08_wmma_tensorcore's driver: ch08::sgemm (TF32) and ch08::hgemm (FP16 inputs) first, then the
// other configurations tried on the H200 (--variant all). Each is compared with cuBLAS in the same
// precision: TF32 (CUBLAS_COMPUTE_32F_FAST_TF32) or FP16 inputs with FP32 compute and output.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch08 {
// EARLY_BARRIER: each k-tile's barrier before its last step's MMAs, as in 07 ("_barrier_early");
// FRAG_BUFS 2: fragments also double-buffered in registers ("_frags2", with the early barrier).
// PTX_LOAD false: TF32 fragments through WMMA's C++ load ("_cpp_load"). The defaults (barrier
// after the last step, one set of fragments, split K, PTX loads) have no suffix.
template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool PTX_LOAD = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::warp_tile_variant<T, BM, BN, BK, WM, WN, 2>(
             gemm_launch<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, true, PTX_LOAD>,
             gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, PTX_LOAD, true>,
             gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, PTX_LOAD, false>, 0,
             suffix)
      .with(GEMM_PARAM(EARLY_BARRIER))
      .with(GEMM_PARAM(FRAG_BUFS))
      .with("SPLIT_K", 1)
      .with(GEMM_PARAM(PTX_LOAD));
}

// The first variant of each precision is the one ch08::sgemm (TF32) or ch08::hgemm (FP16) runs;
// --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      tile<float, 128, 128, 16, 64, 64>(),
      tile<__half, 128, 128, 32, 64, 64>(),
      tile<float, 128, 128, 16, 64, 64, false, 1, false>("_cpp_load"),
      tile<float, 128, 128, 16, 64, 64, true>("_barrier_early"),
      tile<float, 128, 128, 16, 64, 64, true, 2>("_frags2"),
      tile<float, 128, 128, 16, 64, 32>(),
      tile<float, 128, 256, 8, 64, 64>(),
      tile<float, 64, 64, 16, 32, 32>(),
      tile<__half, 128, 128, 32, 64, 64, true>("_barrier_early"),
      tile<__half, 128, 128, 32, 64, 64, true, 2>("_frags2"),
      tile<__half, 128, 128, 32, 64, 32>(),
      tile<__half, 128, 256, 16, 64, 64>(),
      tile<__half, 128, 128, 16, 64, 64>(),
      tile<__half, 64, 64, 32, 32, 32>(),
  };
}
}  // namespace ch08
