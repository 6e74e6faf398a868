#include "gemm_tests.h"

#include "../../05_swizzle/kernel.cu"

GEMM_CHAPTER_TESTS("[ch05]", "ch05::sgemm", ch05::sgemm, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch05][64x64x8]", "ch05 64x64x8 4x4", ch05::sgemm_launch<64, 64, 8, 4, 4>,
                   nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch05][128x128x8]", "ch05 128x128x8 8x8", ch05::sgemm_launch<128, 128, 8, 8, 8>,
                   nullptr, gemm::Precision::FP32, 4)
