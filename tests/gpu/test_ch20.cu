#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch20)
GEMM_DECLARE_HGEMM(ch20)
GEMM_DECLARE_BGEMM(ch20)

GEMM_REQUIRE_HOPPER(ch20)

// The entry point computes C^T where C has at most 128 rows and more columns (the matrix's
// shapes of 1-127 rows) and runs 19's widths elsewhere.
GEMM_ENTRY_POINT_TESTS_IF(ch20_hopper, "[ch20][fp16]", ch20, "ch20::hgemm (FP16)", ch20::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch20_hopper, "[ch20][bf16]", ch20, "ch20::bgemm (BF16)", ch20::bgemm,
                          gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C goes element by element.
TEST_CASE("ch20::hgemm (FP16): C one element past an aligned address", "[ch20][fp16]") {
  ch20_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch20::variants(), "", gemm::Precision::FP16));
}

// Each width of the transposed product, and the entry point, at 1-128 rows against N and K in
// the thousands.
TEST_CASE("ch20: every width of C^T and the entry point, skinny shapes", "[ch20][fp16]") {
  ch20_hopper();
  for (const char* name : {"", "fp16_128x16x64_s12_swap", "fp16_128x32x64_s10_swap",
                           "fp16_128x64x64_s8_swap", "fp16_128x64x64_s8_swap_nostreamk"})
    gemm_tests::check_skinny(gemm_tests::find(ch20::variants(), name, gemm::Precision::FP16));
}

// The report says which product ran: C^T for 16 rows, 19's width for a square.
TEST_CASE("ch20::hgemm (FP16): the launch says whether it computed C^T", "[ch20][fp16]") {
  ch20_hopper();
  const gemm::Variant v = gemm_tests::find(ch20::variants(), "", gemm::Precision::FP16);
  for (const int M : {16, 1024}) {
    gemm::Problem prob(M, 1024, 1024, 5, true);
    gemm::LaunchInfo info;
    REQUIRE(v.launch(prob, 1.0f, 0.0f, nullptr, &info) == cudaSuccess);
    CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(info.note.rfind(M == 16 ? "C^T in tiles of 128 x 16" : "tiles of 128 x ", 0) == 0);
    CHECK(info.kernel != nullptr);
  }
}

// 16 x 4104 x 2048: 17 tiles of C^T on 66 clusters, each cut into two pieces of 16 k-tiles that
// go into C in turn, the same bits each run.
TEST_CASE("ch20::hgemm (FP16): C^T's tiles cut in two, the same bits each run", "[ch20][fp16]") {
  ch20_hopper();
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch20::variants(), "", gemm::Precision::FP16), 2, 16, 4104, 2048);
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since they take all of the GPU's memory.
TEST_CASE(
    "ch20::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch20][fp16][no_memory]") {
  ch20_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch20::variants(), "", gemm::Precision::FP16), 16,
                              2000, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch20::hgemm (FP16): no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch20][fp16][no_memory]") {
  ch20_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch20::variants(), "", gemm::Precision::FP16), 16,
                              4104, 2056, "no GPU memory for stream-K's flags");
}
