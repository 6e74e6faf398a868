#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch15)
GEMM_DECLARE_HGEMM(ch15)
GEMM_DECLARE_BGEMM(ch15)
GEMM_REQUIRE_HOPPER(ch15)

// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch15_hopper, "[ch15][fp16]", ch15, "ch15::hgemm (FP16)", ch15::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch15_hopper, "[ch15][bf16]", ch15, "ch15::bgemm (BF16)", ch15::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch15_hopper, "[ch15][fp16][c1]", ch15, "fp16_128x256x64_s4_c1",
                      gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch15_hopper, "[ch15][fp16][release]", ch15, "fp16_128x256x64_s4_release",
                      gemm_tests::tma_paths)
