#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch01)
GEMM_DECLARE_SGEMM(ch01)

GEMM_ENTRY_POINT_TESTS("[ch01]", ch01, "ch01::sgemm", ch01::sgemm, gemm_tests::element_only)
