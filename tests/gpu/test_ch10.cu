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

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, and C is written element by
// element from the registers (the store through shared memory and the 8-byte stores need more).
TEST_CASE("ch10::hgemm (FP16): C one element past an aligned address", "[ch10][fp16]") {
  require_hopper();
  for (const float beta : {0.0f, 0.25f}) {
    const int M = 300, N = 520, K = 200;
    const float alpha = -1.5f;
    INFO("M=" << M << " N=" << N << " K=" << K << " alpha=" << alpha << " beta=" << beta);
    gemm::Problem prob(M, N, K, 77, true);
    prob.reset_c(beta, nullptr);
    gemm::DeviceBuffer<float> c(std::size_t(M) * N, 1);
    CUDA_CHECK(cudaMemcpy(c.ptr, prob.C.ptr, c.count * sizeof(float), cudaMemcpyDeviceToDevice));
    REQUIRE(ch10::hgemm(M, N, K, alpha, prob.A16.ptr, prob.B16.ptr, beta, c.ptr, nullptr) ==
            cudaSuccess);
    CHECK(gemm::access_path() == "tma");
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(prob.C.ptr, c.ptr, c.count * sizeof(float), cudaMemcpyDeviceToDevice));
    const gemm::CompareResult r = prob.check_c(gemm::Precision::FP16, alpha, beta);
    INFO(gemm::report(r, N));
    REQUIRE(r.pass);
  }
}
