#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch07)
GEMM_DECLARE_SGEMM(ch07)

GEMM_ENTRY_POINT_TESTS("[ch07]", ch07, "ch07::sgemm", ch07::sgemm, gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch07][64x64x8]", ch07, "64x64x8_4x4", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch07][barrier_last]", ch07, "128x128x8_8x8_barrier_last",
                   gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch07][frags2]", ch07, "128x128x8_8x8_frags2", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch07][128x256x8]", ch07, "128x256x8_8x16", gemm_tests::float4_paths)
