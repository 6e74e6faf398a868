#include "gemm_tests.h"

#include "../../10_wgmma_tma/kernel.cu"

#include <cstdio>
#include <cstdlib>

namespace {
// Chapter 10 runs only on a Hopper GPU, from a build with sm_90a code: elsewhere each of its
// tests says why and exits 77, which CTest reports as skipped.
void require_hopper() {
  cudaError_t err = cudaSuccess;
  const ch10::Hopper& gpu = ch10::hopper(err);
  if (err == cudaSuccess && !gpu.ok) {
    std::printf("%s: skipped\n", gpu.why.c_str());
    std::exit(77);
  }
}
}  // namespace

// Where TMA can describe A and B the launcher reports "tma"; elsewhere it runs 09's kernel,
// element by element ("09 element").
#define CH10_TESTS(TAG, NAME, LAUNCH)                                                    \
  GEMM_CHAPTER_TESTS_IF(require_hopper, TAG, NAME, nullptr, LAUNCH, gemm::Precision::FP16, 8, \
                        "tma", "09 element", true)

CH10_TESTS("[ch10][fp16]", "ch10::hgemm (FP16)", ch10::hgemm)
CH10_TESTS("[ch10][fp16][c1_grid]", "ch10 one block per tile, no cluster",
           (ch10::gemm_launch<256, 4, 1, false>))
CH10_TESTS("[ch10][fp16][direct]", "ch10 C from registers, each k-tile waited for",
           (ch10::gemm_launch<256, 4, 2, true, 8, false, false, false>))
CH10_TESTS("[ch10][fp16][128x128]", "ch10 128x128 tile, 6 stages, row-by-row order",
           (ch10::gemm_launch<128, 6, 2, true, 0>))
CH10_TESTS("[ch10][fp16][nosplit]", "ch10 K never split",
           (ch10::gemm_launch<256, 4, 2, true, 8, true, false, true, false>))
