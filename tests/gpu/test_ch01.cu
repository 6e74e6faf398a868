#include "gemm_tests.h"

#include "../../01_naive/kernel.cu"

GEMM_CHAPTER_TESTS("[ch01]", "ch01::sgemm", ch01::sgemm)
