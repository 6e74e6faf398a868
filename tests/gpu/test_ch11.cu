#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch11)
GEMM_DECLARE_HGEMM(ch11)
GEMM_DECLARE_BGEMM(ch11)
GEMM_REQUIRE_HOPPER(ch11)

// cp.async reads every shape: 16-byte copies where K, N and the pointers allow, else element
// by element; with K = 0 the launcher only scales C.
GEMM_ENTRY_POINT_TESTS_IF(ch11_hopper, "[ch11][fp16]", ch11, "ch11::hgemm (FP16)", ch11::hgemm,
                          gemm_tests::half8_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch11_hopper, "[ch11][bf16]", ch11, "ch11::bgemm (BF16)", ch11::bgemm,
                          gemm_tests::half8_paths)
GEMM_VARIANT_TESTS_IF(ch11_hopper, "[ch11][fp16][wait0]", ch11, "fp16_128x256x64_s4_wait0",
                      gemm_tests::half8_paths)
GEMM_VARIANT_TESTS_IF(ch11_hopper, "[ch11][fp16][128x128]", ch11, "fp16_128x128x64_s6",
                      gemm_tests::half8_paths)
// Every copy checked, interior blocks too (the default copies those unchecked).
GEMM_VARIANT_TESTS_IF(ch11_hopper, "[ch11][fp16][checked]", ch11, "fp16_128x256x64_s4_checked",
                      gemm_tests::half8_paths)
