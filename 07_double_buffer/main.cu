// Driver for 07_double_buffer: the default and the configurations tried while tuning for the
// H200 (--variant all), including 03's three.
#include "variants.h"

#include "kernel.cu"

namespace ch07 {
// The first variant is the one ch07::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_THREAD_TILE(128, 128, 8, 8, 8),  GEMM_THREAD_TILE(128, 128, 16, 8, 8),
      GEMM_THREAD_TILE(64, 64, 8, 4, 4),    GEMM_THREAD_TILE(128, 256, 8, 8, 16),
      GEMM_THREAD_TILE(256, 128, 8, 16, 8), GEMM_THREAD_TILE(128, 256, 16, 8, 16),
      GEMM_THREAD_TILE(64, 128, 8, 8, 8),
  };
}
}  // namespace ch07

GEMM_CHAPTER_MAIN("07_double_buffer", ch07)
