#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch17)
GEMM_DECLARE_HGEMM(ch17)
GEMM_DECLARE_BGEMM(ch17)

GEMM_REQUIRE_HOPPER(ch17)


// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch17_hopper, "[ch17][fp16]", ch17, "ch17::hgemm (FP16)", ch17::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch17_hopper, "[ch17][bf16]", ch17, "ch17::bgemm (BF16)", ch17::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch17_hopper, "[ch17][fp16][direct]", ch17, "fp16_128x256x64_s4_direct",
                      gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch17_hopper, "[ch17][fp16][c1]", ch17, "fp16_128x256x64_s4_c1",
                      gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C goes element by element.
TEST_CASE("ch17::hgemm (FP16): C one element past an aligned address", "[ch17][fp16]") {
  ch17_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch17::variants(), "", gemm::Precision::FP16));
}

// At 1024 x 1024 x 4096 the 16 tiles would leave 50 of the 66 clusters idle: every tile is shared
// out among 4 clusters (ranges of 16 of its 64 k-tiles), which add their pieces into C in turn:
// through the TMA unit (beta 0) or with atomics. _nostreamk keeps them whole.
TEST_CASE("ch17::hgemm (FP16): a few tiles shared out among all clusters, the same bits each run",
          "[ch17][fp16]") {
  ch17_hopper();
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch17::variants(), "", gemm::Precision::FP16), 4);
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch17::variants(), "fp16_128x256x64_s4_nostreamk", gemm::Precision::FP16), 1);
}

// Where TMA cannot read A, the launcher takes scratch for an aligned copy; with the GPU's memory
// all taken it must fail in one sentence with cudaErrorMemoryAllocation and leave C untouched.
// Hidden ([.]): it takes every byte of the GPU, so CTest runs it alone (tests/CMakeLists.txt).
TEST_CASE(
    "ch17::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch17][fp16][no_memory]") {
  ch17_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch17::variants(), "", gemm::Precision::FP16),
                              2000, 512, 1001, "no GPU memory for the aligned copy of A");
}

// Stream-K takes its flags (a few hundred bytes) in the same way.
TEST_CASE(
    "ch17::hgemm (FP16): no memory for the flags: cudaErrorMemoryAllocation, C untouched",
    "[.][ch17][fp16][no_memory]") {
  ch17_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch17::variants(), "", gemm::Precision::FP16),
                              1024, 1024, 4096, "no GPU memory for stream-K's flags");
}
