// 01_naive's driver: its variants, handed to the shared harness (common/harness.h), which its
// program, the benchmark runner and the tests run.
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch01 {
// The first variant is the one ch01::sgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      GEMM_BLOCK(8, 32),
  };
}
}  // namespace ch01
