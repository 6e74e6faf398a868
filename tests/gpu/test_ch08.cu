#include "gemm_tests.h"

#include "../../08_wmma_tensorcore/kernel.cu"

namespace {
// 16-byte copies: 4 floats or 8 halves.
bool tf32_shapes(const gemm_tests::Shape& s) {
  return s.K % 4 == 0 && s.N % 4 == 0;
}
bool fp16_shapes(const gemm_tests::Shape& s) {
  return s.K % 8 == 0 && s.N % 8 == 0;
}
}  // namespace

GEMM_CHAPTER_TESTS("[ch08][tf32]", "ch08::sgemm (TF32)", ch08::sgemm, nullptr,
                   gemm::Precision::TF32, tf32_shapes)
GEMM_CHAPTER_TESTS("[ch08][fp16]", "ch08::hgemm (FP16)", nullptr, ch08::hgemm,
                   gemm::Precision::FP16, fp16_shapes)
