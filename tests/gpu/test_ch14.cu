#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch14)
GEMM_DECLARE_HGEMM(ch14)
GEMM_DECLARE_BGEMM(ch14)
GEMM_REQUIRE_HOPPER(ch14)

// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch14_hopper, "[ch14][fp16]", ch14, "ch14::hgemm (FP16)", ch14::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch14_hopper, "[ch14][bf16]", ch14, "ch14::bgemm (BF16)", ch14::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch14_hopper, "[ch14][fp16][grid]", ch14, "fp16_128x256x64_s4_grid",
                      gemm_tests::tma_paths)
