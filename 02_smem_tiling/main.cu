// Driver for 02_smem_tiling: TILE 32 (the default), 16 and 8, seed 001's sweep (--variant all).
#include "variants.h"

#include "kernel.cu"

namespace ch02 {
// The first variant is the one ch02::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_SQUARE_TILE(32),
      GEMM_SQUARE_TILE(16),
      GEMM_SQUARE_TILE(8),
  };
}
}  // namespace ch02

GEMM_CHAPTER_MAIN("02_smem_tiling", ch02)
