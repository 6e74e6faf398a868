// Driver for 07_double_buffer: the default and the configurations tried while tuning for the
// H200 (--variant all), including 03's three.
#include "harness.h"

#include "kernel.cu"

namespace ch07 {
// The first variant is the one ch07::sgemm runs; --variant all runs every one.
inline std::vector<gemm::Variant> variants() {
  return {{"128x128x8_8x8", sgemm_launch<128, 128, 8, 8, 8>,
           gemm::kernel_info(sgemm_kernel<128, 128, 8, 8, 8>, 256)},
          {"128x128x16_8x8", sgemm_launch<128, 128, 16, 8, 8>,
           gemm::kernel_info(sgemm_kernel<128, 128, 16, 8, 8>, 256)},
          {"64x64x8_4x4", sgemm_launch<64, 64, 8, 4, 4>,
           gemm::kernel_info(sgemm_kernel<64, 64, 8, 4, 4>, 256)},
          {"128x256x8_8x16", sgemm_launch<128, 256, 8, 8, 16>,
           gemm::kernel_info(sgemm_kernel<128, 256, 8, 8, 16>, 256)},
          {"256x128x8_16x8", sgemm_launch<256, 128, 8, 16, 8>,
           gemm::kernel_info(sgemm_kernel<256, 128, 8, 16, 8>, 256)},
          {"128x256x16_8x16", sgemm_launch<128, 256, 16, 8, 16>,
           gemm::kernel_info(sgemm_kernel<128, 256, 16, 8, 16>, 256)},
          {"64x128x8_8x8", sgemm_launch<64, 128, 8, 8, 8>,
           gemm::kernel_info(sgemm_kernel<64, 128, 8, 8, 8>, 128)}};
}
}  // namespace ch07

#ifndef GEMM_ALL_CHAPTERS  // bench/main.cu compiles every chapter into one program
int main(int argc, char** argv) {
  return gemm::run_chapter(argc, argv, "07_double_buffer", ch07::variants());
}
#endif
