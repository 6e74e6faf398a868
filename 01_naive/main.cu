// Driver for 01_naive: hands the launcher to the shared harness (common/harness.h).
#include "harness.h"

#include "kernel.cu"

namespace ch01 {
// The first variant is the one ch01::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {{"8x32", sgemm_launch<8, 32>, gemm::kernel_info(sgemm_kernel<8, 32>, 8 * 32)}};
}
}  // namespace ch01

#ifndef GEMM_ALL_CHAPTERS  // bench/main.cu compiles every chapter into one program
int main(int argc, char** argv) {
  return gemm::run_chapter(argc, argv, "01_naive", ch01::variants());
}
#endif
