#include "gemm_tests.h"

#include <utility>

GEMM_DECLARE_VARIANTS(ch28)
GEMM_DECLARE_HGEMM(ch28)
GEMM_DECLARE_BGEMM(ch28)

GEMM_REQUIRE_HOPPER(ch28)

// The entry point: 27's products, tiles and clusters, and C^T's tiles of 64 rows half as wide (8, 16
// or 32) where the narrower fill more than half the SMs and no more than all of them.
GEMM_ENTRY_POINT_TESTS_IF(ch28_hopper, "[ch28][fp16]", ch28, "ch28::hgemm (FP16)", ch28::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch28_hopper, "[ch28][bf16]", ch28, "ch28::bgemm (BF16)", ch28::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch28::hgemm (FP16): C one element past an aligned address", "[ch28][fp16]") {
  ch28_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch28::variants(), "", gemm::Precision::FP16));
}

// Tiles of 64 x 8, FP16 and BF16: the skinny shapes (partial tiles both ways, beta 0 and not), the
// copies of A and B, C one element off; tiles cut in two along K where they are fewer than half the
// blocks (16 x 600 x 2048: 20 tiles), the same bits each run; 27's 64 x 16 beside them.
TEST_CASE("ch28: C^T in tiles of 64 x 8", "[ch28][fp16]") {
  ch28_hopper();
  for (const char* name : {"fp16_64x8x64_s24_swap", "bf16_64x8x64_s24_swap",
                           "fp16_64x16x64_s22_swap"}) {
    INFO(name);
    const gemm::Variant v = gemm_tests::find(ch28::variants(), name);
    gemm_tests::check_skinny(v);
    gemm_tests::check_shape_matrix(v, gemm_tests::tma_paths);
  }
  const gemm::Variant eight = gemm_tests::find(ch28::variants(), "fp16_64x8x64_s24_swap");
  gemm_tests::check_staged(eight, false, false, false);
  gemm_tests::check_c_one_past_aligned(eight);
  gemm_tests::check_shared_out_same_bits(eight, 2, 16, 600, 2048);
}

// The rule (on 132 SMs): tiles half as wide where they are 67-132 (16 x 4096 x 4096: 128 of 64 x 8;
// 12 x 4200 x 1024: 132; 32 x 4096 x 4096: 128 of 64 x 16; 48 and 64 x 4096 x 4096: 128 of 64 x
// 32), else 27's: where they would be more than a round (16 x 8192 x 8192: 256) or no more than
// half (16 x 2048 x 4096: 64), where half the width makes no more tiles (8 x 4096 x 4096), and at
// 65-128 rows (100 x 4096 x 4096: two tiles of 64 x 64 across); C's own tiles unchanged.
TEST_CASE("ch28: which products take tiles of 64 x 8", "[ch28][fp16]") {
  ch28_hopper();
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const gemm::Variant v = gemm_tests::find(ch28::variants(), "", gemm::Precision::FP16);
  using Case = std::pair<gemm::Shape, const char*>;
  for (const auto& [shape, note] :
       {Case{{16, 4096, 4096}, "C^T in tiles of 64 x 8, clusters of one"},
        {{12, 4200, 1024}, "C^T in tiles of 64 x 8, clusters of one"},
        {{16, 8192, 8192}, "C^T in tiles of 64 x 16, clusters of one"},
        {{16, 2048, 4096}, "C^T in tiles of 64 x 16, clusters of one"},
        {{8, 4096, 4096}, "C^T in tiles of 64 x 16, clusters of one"},
        {{32, 4096, 4096}, "C^T in tiles of 64 x 16, clusters of one"},
        {{48, 4096, 4096}, "C^T in tiles of 64 x 32, clusters of one"},
        {{64, 4096, 4096}, "C^T in tiles of 64 x 32, clusters of one"},
        {{64, 8192, 8192}, "C^T in tiles of 64 x 64, clusters of one"},
        {{100, 4096, 4096}, "C^T in tiles of 64 x 64, clusters of one"},
        {{1024, 1024, 1024}, "tiles of 128 x 64, clusters of one, C from the registers"}}) {
    INFO(sms << " SMs");
    if (sms != 132) continue;  // the rule's rounds depend on the SMs
    gemm_tests::check_rule_note(v, shape, note);
  }
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory.
TEST_CASE("ch28: tiles of 64 x 8 cut along K, no memory for the flags: cudaErrorMemoryAllocation, "
          "C untouched",
          "[.][ch28][fp16][no_memory]") {
  ch28_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch28::variants(), "fp16_64x8x64_s24_swap"), 16, 600,
                              2048, "no GPU memory for stream-K's flags");
}
