// Driver for 04_transposed_A: the same three tile configurations as 03 (--variant all).
#include "variants.h"

#include "kernel.cu"

namespace ch04 {
// The first variant is the one ch04::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_THREAD_TILE(128, 128, 16, 8, 8),
      GEMM_THREAD_TILE(64, 64, 8, 4, 4),
      GEMM_THREAD_TILE(128, 128, 8, 8, 8),
  };
}
}  // namespace ch04

GEMM_CHAPTER_MAIN("04_transposed_A", ch04)
