#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch03)
GEMM_DECLARE_SGEMM(ch03)

GEMM_ENTRY_POINT_TESTS("[ch03]", ch03, "ch03::sgemm", ch03::sgemm, gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch03][64x64x8]", ch03, "64x64x8_4x4", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch03][128x128x8]", ch03, "128x128x8_8x8", gemm_tests::float4_paths)
