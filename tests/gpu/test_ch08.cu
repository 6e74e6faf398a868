#include "gemm_tests.h"

#include "../../08_wmma_tensorcore/kernel.cu"

GEMM_CHAPTER_TESTS("[ch08][tf32]", "ch08::sgemm (TF32)", ch08::sgemm, nullptr,
                   gemm::Precision::TF32, 4)
GEMM_CHAPTER_TESTS("[ch08][fp16]", "ch08::hgemm (FP16)", nullptr, ch08::hgemm,
                   gemm::Precision::FP16, 8)
GEMM_CHAPTER_TESTS("[ch08][tf32][barrier_early]", "ch08 TF32 barrier early",
                   (ch08::gemm_launch<float, 128, 128, 16, 64, 64, 1>), nullptr,
                   gemm::Precision::TF32, 4)
GEMM_CHAPTER_TESTS("[ch08][fp16][frags2]", "ch08 FP16 fragments x2", nullptr,
                   (ch08::gemm_launch<__half, 128, 128, 32, 64, 64, 2>), gemm::Precision::FP16, 8)
GEMM_CHAPTER_TESTS("[ch08][tf32][cpp_load]", "ch08 TF32 C++ fragment loads",
                   (ch08::gemm_launch<float, 128, 128, 16, 64, 64, 0, true, false>), nullptr,
                   gemm::Precision::TF32, 4)
