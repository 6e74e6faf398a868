#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch13)
GEMM_DECLARE_HGEMM(ch13)
GEMM_DECLARE_BGEMM(ch13)
GEMM_REQUIRE_HOPPER(ch13)

// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch13_hopper, "[ch13][fp16]", ch13, "ch13::hgemm (FP16)", ch13::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch13_hopper, "[ch13][bf16]", ch13, "ch13::bgemm (BF16)", ch13::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch13_hopper, "[ch13][fp16][128x128]", ch13, "fp16_128x128x64_s6",
                      gemm_tests::tma_paths)
