#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch10)
GEMM_DECLARE_SGEMM(ch10)
GEMM_DECLARE_HGEMM(ch10)

GEMM_ENTRY_POINT_TESTS("[ch10][tf32]", ch10, "ch10::sgemm (TF32)", ch10::sgemm,
                       gemm_tests::float4_paths)
GEMM_ENTRY_POINT_TESTS("[ch10][fp16]", ch10, "ch10::hgemm (FP16)", ch10::hgemm,
                       gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch10][tf32][barrier_early_frags2]", ch10,
                   "tf32_128x128x32_w64x64_s3_barrier_early_frags2", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch10][tf32][s2]", ch10, "tf32_128x128x16_w64x64_s2", gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch10][fp16][noswizzle]", ch10, "fp16_128x256x32_w64x64_s4_noswizzle",
                   gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch10][fp16][128x256x64]", ch10, "fp16_128x256x64_w64x64_s4",
                   gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch10][fp16][128x64]", ch10, "fp16_128x64x32_w64x32_s4",
                   gemm_tests::half8_paths)
