#include "gemm_tests.h"

#include "../../04_transposed_A/kernel.cu"

GEMM_CHAPTER_TESTS("[ch04]", "ch04::sgemm", ch04::sgemm, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch04][64x64x8]", "ch04 64x64x8 4x4", ch04::sgemm_launch<64, 64, 8, 4, 4>,
                   nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch04][128x128x8]", "ch04 128x128x8 8x8", ch04::sgemm_launch<128, 128, 8, 8, 8>,
                   nullptr, gemm::Precision::FP32, 4)
