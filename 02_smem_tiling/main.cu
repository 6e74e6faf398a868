// Driver for 02_smem_tiling: TILE 32 (the default), 16 and 8, seed 001's sweep (--variant all).
#include "harness.h"

#include "kernel.cu"

namespace ch02 {
// The first variant is the one ch02::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {{"tile32", sgemm_launch<32>, gemm::kernel_info(sgemm_kernel<32>, 32 * 32)},
          {"tile16", sgemm_launch<16>, gemm::kernel_info(sgemm_kernel<16>, 16 * 16)},
          {"tile8", sgemm_launch<8>, gemm::kernel_info(sgemm_kernel<8>, 8 * 8)}};
}
}  // namespace ch02

#ifndef GEMM_ALL_CHAPTERS  // bench/main.cu compiles every chapter into one program
int main(int argc, char** argv) {
  return gemm::run_chapter(argc, argv, "02_smem_tiling", ch02::variants());
}
#endif
