// Driver for 01_naive: hands the launcher to the shared harness (common/harness.h).
#include "variants.h"

#include "kernel.cu"

namespace ch01 {
// The first variant is the one ch01::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {
      GEMM_BLOCK(8, 32),
  };
}
}  // namespace ch01

GEMM_CHAPTER_MAIN("01_naive", ch01)
