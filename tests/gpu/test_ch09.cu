#include "gemm_tests.h"

#include "../../09_mma_sync/kernel.cu"

GEMM_CHAPTER_TESTS("[ch09][tf32]", "ch09::sgemm (TF32)", ch09::sgemm, nullptr,
                   gemm::Precision::TF32, 4)
GEMM_CHAPTER_TESTS("[ch09][fp16]", "ch09::hgemm (FP16)", nullptr, ch09::hgemm,
                   gemm::Precision::FP16, 8)
GEMM_CHAPTER_TESTS("[ch09][tf32][frags1]", "ch09 TF32 fragments x1",
                   (ch09::gemm_launch<float, 128, 128, 32, 64, 64, 3, 1>), nullptr,
                   gemm::Precision::TF32, 4)
GEMM_CHAPTER_TESTS("[ch09][fp16][noswizzle]", "ch09 FP16 unswizzled", nullptr,
                   (ch09::gemm_launch<__half, 128, 256, 32, 64, 64, 4, 2, false>),
                   gemm::Precision::FP16, 8)
GEMM_CHAPTER_TESTS("[ch09][fp16][128x256x64]", "ch09 FP16 128x256x64 4 stages", nullptr,
                   (ch09::gemm_launch<__half, 128, 256, 64, 64, 64, 4>), gemm::Precision::FP16, 8)
GEMM_CHAPTER_TESTS("[ch09][fp16][128x64]", "ch09 FP16 128x64 warps 64x32", nullptr,
                   (ch09::gemm_launch<__half, 128, 64, 32, 64, 32, 4>), gemm::Precision::FP16, 8)
