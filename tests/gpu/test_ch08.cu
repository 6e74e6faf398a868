#include "gemm_tests.h"

#include "../../08_wmma_tensorcore/kernel.cu"

GEMM_CHAPTER_TESTS("[ch08][tf32]", "ch08::sgemm (TF32)", ch08::sgemm, nullptr,
                   gemm::Precision::TF32, 4)
GEMM_CHAPTER_TESTS("[ch08][fp16]", "ch08::hgemm (FP16)", nullptr, ch08::hgemm,
                   gemm::Precision::FP16, 8)
