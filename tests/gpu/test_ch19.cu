#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch19)
GEMM_DECLARE_HGEMM(ch19)
GEMM_DECLARE_BGEMM(ch19)

GEMM_REQUIRE_HOPPER(ch19)


// The entry point picks a width per shape, so its shape matrix runs several kernels; 192 and 64
// columns are new here (256 and 128 are 18's kernels), and each runs the whole matrix as well.
GEMM_ENTRY_POINT_TESTS_IF(ch19_hopper, "[ch19][fp16]", ch19, "ch19::hgemm (FP16)", ch19::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch19_hopper, "[ch19][bf16]", ch19, "ch19::bgemm (BF16)", ch19::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch19_hopper, "[ch19][fp16][w192]", ch19, "fp16_128x192x64_s4",
                      gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch19_hopper, "[ch19][fp16][w64]", ch19, "fp16_128x64x64_s8",
                      gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C goes element by element.
TEST_CASE("ch19::hgemm (FP16): C one element past an aligned address", "[ch19][fp16]") {
  ch19_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch19::variants(), "", gemm::Precision::FP16));
}

// Each width defers min(4, its chunks) chunks of C into the next piece's k-loop (64 columns: the
// whole tile): pieces of 1 to 9 k-tiles, several tiles per cluster, at every width.
TEST_CASE("ch19: every width, deferred chunks of C, pieces of 1 to 9 k-tiles", "[ch19][fp16]") {
  ch19_hopper();
  for (const char* name :
       {"fp16_128x256x64_s4", "fp16_128x192x64_s4", "fp16_128x128x64_s6", "fp16_128x64x64_s8"})
    gemm_tests::check_short_pieces(gemm_tests::find(ch19::variants(), name), {64, 136, 520}, 83);
}

// The report names the width the rule took and gives the resources of that kernel.
TEST_CASE("ch19::hgemm (FP16): the launch says which width ran", "[ch19][fp16]") {
  ch19_hopper();
  const gemm::Variant v = gemm_tests::find(ch19::variants(), "", gemm::Precision::FP16);
  gemm::Problem prob(1024, 1024, 1024, 5, true);
  gemm::LaunchInfo info;
  REQUIRE(v.launch(prob, 1.0f, 0.0f, nullptr, &info) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(info.note.rfind("tiles of 128 x ", 0) == 0);
  CHECK(info.kernel != nullptr);
  CHECK(info.kernel_threads > 0);
}

// 256 columns at 1024 x 1024 x 4096: every tile shared out among 4 clusters (17), which add
// their pieces into C in turn, the same bits each run.
TEST_CASE("ch19 (256 columns): a few tiles shared out among all clusters, the same bits each run",
          "[ch19][fp16]") {
  ch19_hopper();
  gemm_tests::check_shared_out_same_bits(gemm_tests::find(ch19::variants(), "fp16_128x256x64_s4"),
                                         4);
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since they take all of the GPU's memory.
TEST_CASE(
    "ch19::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch19][fp16][no_memory]") {
  ch19_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch19::variants(), "", gemm::Precision::FP16),
                              2000, 512, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch19 (256 columns): no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch19][fp16][no_memory]") {
  ch19_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch19::variants(), "fp16_128x256x64_s4"), 1024,
                              1024, 4096, "no GPU memory for stream-K's flags");
}
