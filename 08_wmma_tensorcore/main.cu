// Driver for 08_wmma_tensorcore: ch08::sgemm (TF32) and ch08::hgemm (FP16 inputs) first, then the
// other tile shapes tried on the H200 (--variant all). Each is compared with cuBLAS in the same
// precision: TF32 (CUBLAS_COMPUTE_32F_FAST_TF32) or FP16 inputs with FP32 compute and output.
#include "harness.h"

#include "kernel.cu"

namespace ch08 {
// Name, launcher and kernel of one configuration: <type, BM, BN, BK, WM, WN, STAGES>.
template <class T, int BM, int BN, int BK, int WM, int WN, int S>
gemm::Variant config(const std::string& name) {
  const auto info =
      gemm::kernel_info(gemm_kernel<T, BM, BN, BK, WM, WN, S>, (BM / WM) * (BN / WN) * 32,
                        smem_bytes<T, BM, BN, BK, WM, WN, S>());
  if constexpr (std::is_same_v<T, float>)
    return {name, gemm_launch<T, BM, BN, BK, WM, WN, S>, info, gemm::Precision::TF32};
  else
    return {name, gemm_launch<T, BM, BN, BK, WM, WN, S>, info};
}

// The first two are what ch08::sgemm (TF32) and ch08::hgemm (FP16) run; --variant all runs all.
inline std::vector<gemm::Variant> variants() {
  return {config<float, 128, 128, 32, 64, 64, 3>("tf32_128x128x32_w64x64_s3"),
          config<__half, 128, 128, 32, 64, 64, 3>("fp16_128x128x32_w64x64_s3"),
          config<float, 128, 128, 32, 64, 32, 3>("tf32_128x128x32_w64x32_s3"),
          config<float, 128, 128, 16, 64, 64, 4>("tf32_128x128x16_w64x64_s4"),
          config<float, 128, 256, 32, 64, 64, 3>("tf32_128x256x32_w64x64_s3"),
          config<__half, 128, 128, 32, 64, 32, 3>("fp16_128x128x32_w64x32_s3"),
          config<__half, 128, 128, 32, 64, 64, 4>("fp16_128x128x32_w64x64_s4"),
          config<__half, 128, 128, 64, 64, 32, 3>("fp16_128x128x64_w64x32_s3"),
          config<__half, 128, 256, 32, 64, 64, 3>("fp16_128x256x32_w64x64_s3")};
}
}  // namespace ch08

#ifndef GEMM_ALL_CHAPTERS  // bench/main.cu compiles every chapter into one program
int main(int argc, char** argv) {
  return gemm::run_chapter(argc, argv, "08_wmma_tensorcore", ch08::variants());
}
#endif
