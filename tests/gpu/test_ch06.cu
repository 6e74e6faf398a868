#include "gemm_tests.h"

#include "../../06_coalesced_store/kernel.cu"

GEMM_CHAPTER_TESTS("[ch06]", "ch06::sgemm", ch06::sgemm, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch06][64x64x8]", "ch06 64x64x8 4x4", ch06::sgemm_launch<64, 64, 8, 4, 4>,
                   nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch06][128x128x8]", "ch06 128x128x8 8x8", ch06::sgemm_launch<128, 128, 8, 8, 8>,
                   nullptr, gemm::Precision::FP32, 4)
