#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch04)
GEMM_DECLARE_SGEMM(ch04)

GEMM_ENTRY_POINT_TESTS("[ch04]", ch04, "ch04::sgemm", ch04::sgemm, gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch04][64x64x8]", ch04, "64x64x8_4x4", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch04][128x128x8]", ch04, "128x128x8_8x8", gemm_tests::float4_paths)
