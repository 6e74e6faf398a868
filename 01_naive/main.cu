// Driver for 01_naive: hands the launcher to the shared harness (common/harness.h).
#include "harness.h"

#include "kernel.cu"

int main(int argc, char** argv) {
  return gemm::run_chapter(
      argc, argv, "01_naive",
      {{"8x32", ch01::sgemm_launch<8, 32>, gemm::kernel_info(ch01::sgemm_kernel<8, 32>, 8 * 32)}});
}
