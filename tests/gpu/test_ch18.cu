#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch18)
GEMM_DECLARE_HGEMM(ch18)
GEMM_DECLARE_BGEMM(ch18)

GEMM_REQUIRE_HOPPER(ch18)


// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch18_hopper, "[ch18][fp16]", ch18, "ch18::hgemm (FP16)", ch18::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch18_hopper, "[ch18][bf16]", ch18, "ch18::bgemm (BF16)", ch18::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch18_hopper, "[ch18][fp16][direct]", ch18, "fp16_128x256x64_s4_direct",
                      gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch18_hopper, "[ch18][fp16][defer2]", ch18, "fp16_128x256x64_s4_defer2",
                      gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C goes element by element.
TEST_CASE("ch18::hgemm (FP16): C one element past an aligned address", "[ch18][fp16]") {
  ch18_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch18::variants(), "", gemm::Precision::FP16));
}

// A tile's last chunks go out during the next piece's k-loop, one every other k-tile, and the
// rest when the piece is shorter than that: 1 to 9 k-tiles per tile here, and 7 or 8 tiles per
// cluster (8192 x 4096), so that every cluster defers from one tile into the next several times.
TEST_CASE("ch18::hgemm (FP16): deferred chunks of C, pieces of 1 to 9 k-tiles", "[ch18][fp16]") {
  ch18_hopper();
  gemm_tests::check_short_pieces(gemm_tests::find(ch18::variants(), "", gemm::Precision::FP16),
                                 {64, 136, 192, 256, 264, 520}, 79);
}

// At 1024 x 1024 x 4096 every tile is shared out among 4 clusters (17), which add their pieces
// into C in turn: the piece that ends a tile defers its last chunks (TMA adds) into the cluster's
// next piece, or past the end of its loop.
TEST_CASE("ch18::hgemm (FP16): a few tiles shared out among all clusters, the same bits each run",
          "[ch18][fp16]") {
  ch18_hopper();
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch18::variants(), "", gemm::Precision::FP16), 4);
}

// Where TMA cannot read A, the launcher takes scratch for an aligned copy, and stream-K its
// flags; with the GPU's memory all taken each must fail in one sentence with
// cudaErrorMemoryAllocation and leave C untouched. Hidden ([.]): run alone (tests/CMakeLists.txt).
TEST_CASE(
    "ch18::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch18][fp16][no_memory]") {
  ch18_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch18::variants(), "", gemm::Precision::FP16),
                              2000, 512, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch18::hgemm (FP16): no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch18][fp16][no_memory]") {
  ch18_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch18::variants(), "", gemm::Precision::FP16),
                              1024, 1024, 4096, "no GPU memory for stream-K's flags");
}
