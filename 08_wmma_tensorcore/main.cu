// Driver for 08_wmma_tensorcore: ch08::sgemm (TF32) and ch08::hgemm (FP16 inputs) first, then the
// other configurations tried on the H200 (--variant all). Each is compared with cuBLAS in the same
// precision: TF32 (CUBLAS_COMPUTE_32F_FAST_TF32) or FP16 inputs with FP32 compute and output.
#include "variants.h"

#include "kernel.cu"

namespace ch08 {
// OVERLAP 1: each k-tile's barrier before its last step's MMAs, as in 07 ("_barrier_early"); 2:
// fragments also double-buffered in registers ("_frags2"). PTX_LOAD false: TF32 fragments through
// WMMA's C++ load ("_cpp_load"). The defaults (OVERLAP 0, split K, PTX loads) have no suffix.
template <class T, int BM, int BN, int BK, int WM, int WN, int OVERLAP = 0, bool PTX_LOAD = true>
gemm::Variant tile(const char* suffix = "") {
  return gemm::warp_tile_variant<T, BM, BN, BK, WM, WN, 2>(
      gemm_launch<T, BM, BN, BK, WM, WN, OVERLAP, true, PTX_LOAD>,
      gemm_kernel<T, BM, BN, BK, WM, WN, OVERLAP, PTX_LOAD, true>,
      gemm_kernel<T, BM, BN, BK, WM, WN, OVERLAP, PTX_LOAD, false>, 0, suffix);
}

// The first variant of each precision is the one ch08::sgemm (TF32) or ch08::hgemm (FP16) runs;
// --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      tile<float, 128, 128, 16, 64, 64>(),
      tile<__half, 128, 128, 32, 64, 64>(),
      tile<float, 128, 128, 16, 64, 64, 0, false>("_cpp_load"),
      tile<float, 128, 128, 16, 64, 64, 1>("_barrier_early"),
      tile<float, 128, 128, 16, 64, 64, 2>("_frags2"),
      tile<float, 128, 128, 16, 64, 32>(),
      tile<float, 128, 256, 8, 64, 64>(),
      tile<float, 64, 64, 16, 32, 32>(),
      tile<__half, 128, 128, 32, 64, 64, 1>("_barrier_early"),
      tile<__half, 128, 128, 32, 64, 64, 2>("_frags2"),
      tile<__half, 128, 128, 32, 64, 32>(),
      tile<__half, 128, 256, 16, 64, 64>(),
      tile<__half, 128, 128, 16, 64, 64>(),
      tile<__half, 64, 64, 32, 32, 32>(),
  };
}
}  // namespace ch08

GEMM_CHAPTER_MAIN("08_wmma_tensorcore", ch08)
