// 06_coalesced_store's driver: the same three tile configurations as 03 (--variant all).
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch06 {
// The first variant is the one ch06::sgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      GEMM_THREAD_TILE(128, 128, 16, 8, 8),
      GEMM_THREAD_TILE(64, 64, 8, 4, 4),
      GEMM_THREAD_TILE(128, 128, 8, 8, 8),
  };
}
}  // namespace ch06
