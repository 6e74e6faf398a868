#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch09)
GEMM_DECLARE_SGEMM(ch09)
GEMM_DECLARE_HGEMM(ch09)

GEMM_ENTRY_POINT_TESTS("[ch09][tf32]", ch09, "ch09::sgemm (TF32)", ch09::sgemm,
                       gemm_tests::float4_paths)
GEMM_ENTRY_POINT_TESTS("[ch09][fp16]", ch09, "ch09::hgemm (FP16)", ch09::hgemm,
                       gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch09][tf32][frags2]", ch09, "tf32_128x128x16_w64x64_s2_frags2",
                   gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch09][tf32][noswizzle]", ch09, "tf32_128x128x16_w64x64_s2_noswizzle",
                   gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch09][fp16][noswizzle]", ch09, "fp16_128x128x32_w64x64_s2_noswizzle",
                   gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch09][fp16][128x256]", ch09, "fp16_128x256x32_w64x64_s2_barrier_early_frags2",
                   gemm_tests::half8_paths)
