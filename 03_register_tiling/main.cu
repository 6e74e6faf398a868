// 03_register_tiling's driver: post 002's 128x128x16 (default) and post 000's two configurations,
// 64x64x8 with 4x4 per thread and 128x128x8 with 8x8 per thread (--variant all).
// The program's main() is generated (CMakeLists.txt: gemm_chapter).
#include "variants.h"

#include "kernel.cu"

namespace ch03 {
// The first variant is the one ch03::sgemm runs; --variant all runs every one.
std::vector<gemm::Variant> variants() {
  return {
      GEMM_THREAD_TILE(128, 128, 16, 8, 8),
      GEMM_THREAD_TILE(64, 64, 8, 4, 4),
      GEMM_THREAD_TILE(128, 128, 8, 8, 8),
  };
}
}  // namespace ch03
