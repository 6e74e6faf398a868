#include "gemm_tests.h"

GEMM_DECLARE_VARIANTS(ch16)
GEMM_DECLARE_HGEMM(ch16)
GEMM_DECLARE_BGEMM(ch16)

GEMM_REQUIRE_HOPPER(ch16)

#include <cstring>

// Where TMA can read A and B the launcher reports "tma"; elsewhere it copies them into aligned
// scratch first ("tma staged"); with K = 0 it only scales C ("element").
GEMM_ENTRY_POINT_TESTS_IF(ch16_hopper, "[ch16][fp16]", ch16, "ch16::hgemm (FP16)", ch16::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch16_hopper, "[ch16][bf16]", ch16, "ch16::bgemm (BF16)", ch16::bgemm,
                          gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch16_hopper, "[ch16][fp16][direct]", ch16, "fp16_128x256x64_s4_direct",
                      gemm_tests::tma_paths)
GEMM_VARIANT_TESTS_IF(ch16_hopper, "[ch16][fp16][nosplit]", ch16, "fp16_128x256x64_s4_nosplit",
                      gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C goes element by element.
TEST_CASE("ch16::hgemm (FP16): C one element past an aligned address", "[ch16][fp16]") {
  ch16_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch16::variants(), "", gemm::Precision::FP16));
}

// Where TMA cannot read A, the launcher takes scratch for an aligned copy; with the GPU's memory
// all taken it must fail in one sentence with cudaErrorMemoryAllocation and leave C untouched.
// Hidden ([.]): it takes every byte of the GPU, so CTest runs it alone (tests/CMakeLists.txt).
TEST_CASE(
    "ch16::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch16][fp16][no_memory]") {
  ch16_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch16::variants(), "", gemm::Precision::FP16),
                              2000, 512, 1001, "no GPU memory for the aligned copy of A");
}
