#include "gemm_tests.h"

#include <string>

GEMM_DECLARE_VARIANTS(ch23)
GEMM_DECLARE_HGEMM(ch23)
GEMM_DECLARE_BGEMM(ch23)

GEMM_REQUIRE_HOPPER(ch23)

// The entry point: 22's products, tiles and paths, beta not 0 by scaling C and adding into it.
// The shape matrix's alpha and beta pairs reach every path with beta 0, 1 and neither.
GEMM_ENTRY_POINT_TESTS_IF(ch23_hopper, "[ch23][fp16]", ch23, "ch23::hgemm (FP16)", ch23::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch23_hopper, "[ch23][bf16]", ch23, "ch23::bgemm (BF16)", ch23::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch23::hgemm (FP16): C one element past an aligned address", "[ch23][fp16]") {
  ch23_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch23::variants(), "", gemm::Precision::FP16));
}

// Stream-K's pieces add into beta * C in the same order each run (5 and 4 clusters to a tile, and
// 192 x 192 tiles at 3000 x 3000 x 512, whole), the copies' paths, C^T.
TEST_CASE("ch23: beta through the adds: the same bits each run, every path", "[ch23][fp16]") {
  ch23_hopper();
  const gemm::Variant v = gemm_tests::find(ch23::variants(), "", gemm::Precision::FP16);
  gemm_tests::check_shared_out_same_bits(gemm_tests::find(ch23::variants(), "fp16_192x192x64_s4"), 5);
  gemm_tests::check_shared_out_same_bits(v, 4, 600, 600, 2048);
  gemm_tests::check_shared_out_same_bits(v, 1, 3000, 3000, 512);
  gemm_tests::check_staged(v, true, true);
  gemm_tests::check_skinny(v);
}

// The note says what the launch did with C: scaled and added (beta not 0 or 1), added (beta 1),
// neither (beta 0).
TEST_CASE("ch23: C scaled by beta only where beta is not 0 or 1", "[ch23][fp16]") {
  ch23_hopper();
  const gemm::Variant v = gemm_tests::find(ch23::variants(), "", gemm::Precision::FP16);
  for (const float beta : {0.0f, 1.0f, 0.5f}) {
    INFO("beta " << beta);
    gemm::Problem prob(1024, 1024, 1024, 9, true);
    prob.reset_c(beta, nullptr);
    gemm::LaunchInfo info;
    REQUIRE(v.launch(prob, 1.0f, beta, nullptr, &info) == cudaSuccess);
    CUDA_CHECK(cudaDeviceSynchronize());
    CHECK((info.note.find("the product added to C") != std::string::npos) == (beta == 1.0f));
    CHECK((info.note.find("C scaled by beta") != std::string::npos) == (beta == 0.5f));
  }
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory. C must
// be untouched: the scaling comes after the allocations.
TEST_CASE(
    "ch23::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch23][fp16][no_memory]") {
  ch23_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch23::variants(), "", gemm::Precision::FP16), 16,
                              2000, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch23: 192 x 192, no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch23][fp16][no_memory]") {
  ch23_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch23::variants(), "fp16_192x192x64_s4"), 1024,
                              1024, 4096, "no GPU memory for stream-K's flags");
}
