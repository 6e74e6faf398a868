#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch02)
GEMM_DECLARE_SGEMM(ch02)

GEMM_ENTRY_POINT_TESTS("[ch02]", ch02, "ch02::sgemm", ch02::sgemm, gemm_tests::element_only)
GEMM_VARIANT_TESTS("[ch02][tile16]", ch02, "tile16", gemm_tests::element_only)
GEMM_VARIANT_TESTS("[ch02][tile8]", ch02, "tile8", gemm_tests::element_only)
