// Driver for 02_smem_tiling: TILE 32 (the default), 16 and 8, seed 001's sweep (--variant all).
#include "harness.h"

#include "kernel.cu"

int main(int argc, char** argv) {
  return gemm::run_chapter(
      argc, argv, "02_smem_tiling",
      {{"tile32", ch02::sgemm_launch<32>, gemm::kernel_info(ch02::sgemm_kernel<32>, 32 * 32)},
       {"tile16", ch02::sgemm_launch<16>, gemm::kernel_info(ch02::sgemm_kernel<16>, 16 * 16)},
       {"tile8", ch02::sgemm_launch<8>, gemm::kernel_info(ch02::sgemm_kernel<8>, 8 * 8)}});
}
