// Driver for 08_wmma_tensorcore: ch08::sgemm (TF32) and ch08::hgemm (FP16 inputs) first, then the
// other tile shapes tried on the H200 (--variant all). Each is compared with cuBLAS in the same
// precision: TF32 (CUBLAS_COMPUTE_32F_FAST_TF32) or FP16 inputs with FP32 compute and output.
#include "variants.h"

#include "kernel.cu"

namespace ch08 {
// <input type, BM, BN, BK, WM, WN, STAGES>. The first variant of each precision is the one
// ch08::sgemm (TF32) or ch08::hgemm (FP16) runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_WARP_TILE(float, 128, 128, 32, 64, 64, 3),
      GEMM_WARP_TILE(__half, 128, 128, 32, 64, 64, 3),
      GEMM_WARP_TILE(float, 128, 128, 32, 64, 32, 3),
      GEMM_WARP_TILE(float, 128, 128, 16, 64, 64, 4),
      GEMM_WARP_TILE(float, 128, 256, 32, 64, 64, 3),
      GEMM_WARP_TILE(__half, 128, 128, 32, 64, 32, 3),
      GEMM_WARP_TILE(__half, 128, 128, 32, 64, 64, 4),
      GEMM_WARP_TILE(__half, 128, 128, 64, 64, 32, 3),
      GEMM_WARP_TILE(__half, 128, 256, 32, 64, 64, 3),
  };
}
}  // namespace ch08

GEMM_CHAPTER_MAIN("08_wmma_tensorcore", ch08)
