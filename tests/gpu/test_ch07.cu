#include "gemm_tests.h"

#include "../../07_double_buffer/kernel.cu"

GEMM_CHAPTER_TESTS("[ch07]", "ch07::sgemm", ch07::sgemm, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch07][64x64x8]", "ch07 64x64x8 4x4", ch07::sgemm_launch<64, 64, 8, 4, 4>,
                   nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch07][128x128x8][barrier_last]", "ch07 128x128x8 8x8 barrier last",
                   ch07::sgemm_launch<128, 128, 8, 8, 8, 0>, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch07][128x128x8][frags2]", "ch07 128x128x8 8x8 fragments x2",
                   ch07::sgemm_launch<128, 128, 8, 8, 8, 2>, nullptr, gemm::Precision::FP32, 4)
GEMM_CHAPTER_TESTS("[ch07][128x256x8]", "ch07 128x256x8 8x16",
                   ch07::sgemm_launch<128, 256, 8, 8, 16>, nullptr, gemm::Precision::FP32, 4)
