#include "gemm_tests.h"

#include "../../02_smem_tiling/kernel.cu"

GEMM_CHAPTER_TESTS("[ch02]", "ch02::sgemm", ch02::sgemm)
GEMM_CHAPTER_TESTS("[ch02][tile16]", "ch02 TILE 16", ch02::sgemm_launch<16>)
GEMM_CHAPTER_TESTS("[ch02][tile8]", "ch02 TILE 8", ch02::sgemm_launch<8>)
