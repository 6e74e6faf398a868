#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch12)
GEMM_DECLARE_HGEMM(ch12)
GEMM_DECLARE_BGEMM(ch12)
GEMM_REQUIRE_HOPPER(ch12)

// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch12_hopper, "[ch12][fp16]", ch12, "ch12::hgemm (FP16)", ch12::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch12_hopper, "[ch12][bf16]", ch12, "ch12::bgemm (BF16)", ch12::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch12_hopper, "[ch12][fp16][wait0]", ch12, "fp16_128x256x64_s4_wait0",
                      gemm_tests::tma_paths)
