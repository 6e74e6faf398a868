// Driver for 05_swizzle: the same three tile configurations as 03 (--variant all).
#include "variants.h"

#include "kernel.cu"

namespace ch05 {
// The first variant is the one ch05::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_THREAD_TILE(128, 128, 16, 8, 8),
      GEMM_THREAD_TILE(64, 64, 8, 4, 4),
      GEMM_THREAD_TILE(128, 128, 8, 8, 8),
  };
}
}  // namespace ch05

#ifndef GEMM_ALL_CHAPTERS  // the benchmark runner compiles every chapter into one program
int main(int argc, char** argv) {
  return gemm::run_chapter(argc, argv, "05_swizzle", ch05::variants());
}
#endif
