// 02_smem_tiling's driver: TILE 32 (the default), 16 and 8, post 001's sweep (--variant all).
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch02 {
// The first variant is the one ch02::sgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      GEMM_SQUARE_TILE(32),
      GEMM_SQUARE_TILE(16),
      GEMM_SQUARE_TILE(8),
  };
}
}  // namespace ch02
