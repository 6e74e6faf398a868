#include "gemm_tests.h"

#include <string>
#include <utility>

GEMM_DECLARE_VARIANTS(ch25)
GEMM_DECLARE_HGEMM(ch25)
GEMM_DECLARE_BGEMM(ch25)

GEMM_REQUIRE_HOPPER(ch25)

// The entry point: 24's products, tiles and paths, C^T's tiles of 64 rows where one round takes
// them all (the shape matrix's tall and skinny shapes among them).
GEMM_ENTRY_POINT_TESTS_IF(ch25_hopper, "[ch25][fp16]", ch25, "ch25::hgemm (FP16)", ch25::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch25_hopper, "[ch25][bf16]", ch25, "ch25::bgemm (BF16)", ch25::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch25::hgemm (FP16): C one element past an aligned address", "[ch25][fp16]") {
  ch25_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch25::variants(), "", gemm::Precision::FP16));
}

// Tiles of 64 rows at each width, alone and in clusters of two: the skinny shapes (partial tiles
// in both directions, beta 0 and not), the copies, and tiles cut in two along K where there are
// fewer than blocks (16 and 64 x 2048 x 4096), the same bits each run.
TEST_CASE("ch25: C^T in tiles of 64 rows", "[ch25][fp16]") {
  ch25_hopper();
  for (const char* name : {"fp16_64x16x64_s22_swap", "fp16_64x32x64_s18_swap",
                           "fp16_64x64x64_s13_swap", "fp16_64x64x64_s13_swap_c2"}) {
    INFO(name);
    const gemm::Variant v = gemm_tests::find(ch25::variants(), name);
    gemm_tests::check_skinny(v);
    gemm_tests::check_staged(v, false, false, false);  // 600 x 601: 100 to 380 tiles, whole
  }
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch25::variants(), "fp16_64x16x64_s22_swap"), 2, 16, 2048, 4096);
  gemm_tests::check_shared_out_same_bits(
      gemm_tests::find(ch25::variants(), "fp16_64x64x64_s13_swap"), 2, 64, 2048, 4096);
}

// The rule: tiles of 64 rows where one round of blocks takes them all (132 SMs: 128 tiles at 128
// x 4096 x 4096 and 16 x 8192 x 8192), else 24's tiles of 128 rows; C's own tiles unchanged.
TEST_CASE("ch25: which skinny products take tiles of 64 rows", "[ch25][fp16]") {
  ch25_hopper();
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const gemm::Variant v = gemm_tests::find(ch25::variants(), "", gemm::Precision::FP16);
  using Case = std::pair<gemm::Shape, const char*>;
  for (const auto& [shape, note] :
       {Case{{16, 4096, 4096}, "C^T in tiles of 64 x 16, clusters of one"},
        {{32, 2048, 1024}, "C^T in tiles of 64 x 32, clusters of one"},
        {{100, 4096, 1024}, "C^T in tiles of 64 x 64, clusters of one"},
        {{128, 16384, 1024}, "C^T in tiles of 128 x 64, two side by side"},
        {{16, 16384, 1024}, "C^T in tiles of 128 x 16;"},
        {{1024, 1024, 1024}, "tiles of 128 x 64;"},
        {{4096, 4096, 4096}, "tiles of 128 x 256;"}}) {
    INFO(sms << " SMs");
    if (sms < 128) continue;  // fewer SMs than the 64 and 128 tiles above: another choice
    gemm_tests::check_rule_note(v, shape, note);
  }
  gemm_tests::check_skinny(v);
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory.
TEST_CASE("ch25: tiles of 64 rows, no memory for the aligned copy: cudaErrorMemoryAllocation, C "
          "untouched",
          "[.][ch25][fp16][no_memory]") {
  ch25_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch25::variants(), "fp16_64x64x64_s13_swap"), 100,
                              1000, 1001, "no GPU memory for the aligned copy of A");
}
