#include "gemm_tests.h"

#include "../../03_register_tiling/kernel.cu"

GEMM_CHAPTER_TESTS("[ch03]", "ch03::sgemm", ch03::sgemm, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch03][64x64x8]", "ch03 64x64x8 4x4", ch03::sgemm_launch<64, 64, 8, 4, 4>,
                   nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch03][128x128x8]", "ch03 128x128x8 8x8", ch03::sgemm_launch<128, 128, 8, 8, 8>,
                   nullptr, gemm::Precision::FP32, 4)
