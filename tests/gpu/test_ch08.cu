#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch08)
GEMM_DECLARE_SGEMM(ch08)
GEMM_DECLARE_HGEMM(ch08)

GEMM_ENTRY_POINT_TESTS("[ch08][tf32]", ch08, "ch08::sgemm (TF32)", ch08::sgemm,
                       gemm_tests::float4_paths)
GEMM_ENTRY_POINT_TESTS("[ch08][fp16]", ch08, "ch08::hgemm (FP16)", ch08::hgemm,
                       gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch08][tf32][barrier_early]", ch08, "tf32_128x128x16_w64x64_s2_barrier_early",
                   gemm_tests::float4_paths)
GEMM_VARIANT_TESTS("[ch08][fp16][frags2]", ch08, "fp16_128x128x32_w64x64_s2_frags2",
                   gemm_tests::half8_paths)
GEMM_VARIANT_TESTS("[ch08][tf32][cpp_load]", ch08, "tf32_128x128x16_w64x64_s2_cpp_load",
                   gemm_tests::float4_paths)
