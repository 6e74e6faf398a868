#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch05)
GEMM_DECLARE_SGEMM(ch05)

GEMM_ENTRY_POINT_TESTS("[ch05]", ch05, "ch05::sgemm", ch05::sgemm, gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch05][64x64x8]", ch05, "64x64x8_4x4", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch05][128x128x8]", ch05, "128x128x8_8x8", gemm_tests::float4_paths)
