#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch06)
GEMM_DECLARE_SGEMM(ch06)

GEMM_ENTRY_POINT_TESTS("[ch06]", ch06, "ch06::sgemm", ch06::sgemm, gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch06][64x64x8]", ch06, "64x64x8_4x4", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch06][128x128x8]", ch06, "128x128x8_8x8", gemm_tests::float4_paths)
