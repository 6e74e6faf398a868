#include "gemm_tests.h"

#include <utility>

GEMM_DECLARE_VARIANTS(ch26)
GEMM_DECLARE_HGEMM(ch26)
GEMM_DECLARE_BGEMM(ch26)

GEMM_REQUIRE_HOPPER(ch26)

// The entry point: 25's products, tiles and paths, and 128 x 256 tiles in clusters of four where
// rows straddle L2's lines and their rounds cost less.
GEMM_ENTRY_POINT_TESTS_IF(ch26_hopper, "[ch26][fp16]", ch26, "ch26::hgemm (FP16)", ch26::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch26_hopper, "[ch26][bf16]", ch26, "ch26::bgemm (BF16)", ch26::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch26::hgemm (FP16): C one element past an aligned address", "[ch26][fp16]") {
  ch26_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch26::variants(), "", gemm::Precision::FP16));
}

// Every tile in clusters of four stacked tiles (each block copies a quarter or less of the B tile
// into all four): the shape matrix (partial clusters at the bottom edge among them), stream-K's
// pieces added in order across four blocks' flags, and for the rule's 128 x 256 short pieces whose
// deferred chunks leave in the next k-loop, C one element off and the staged copies.
TEST_CASE("ch26: tiles in clusters of four on every path", "[ch26][fp16]") {
  ch26_hopper();
  for (const char* name :
       {"fp16_128x256x64_s4_c4", "fp16_128x192x64_s4_c4", "fp16_192x192x64_s4_c4"}) {
    INFO(name);
    const gemm::Variant v = gemm_tests::find(ch26::variants(), name);
    gemm_tests::check_shape_matrix(v, gemm_tests::tma_paths);
    gemm_tests::check_shared_out_as_launched(v, 1024, 1024, 4096);
    gemm_tests::check_shared_out_as_launched(v, 600, 600, 2048);
  }
  const gemm::Variant four = gemm_tests::find(ch26::variants(), "fp16_128x256x64_s4_c4");
  gemm_tests::check_short_pieces(four, {64, 136, 520}, 92);
  gemm_tests::check_c_one_past_aligned(four);
  gemm_tests::check_staged(four, true, true);
}

// The rule (on 132 SMs): four at 5000^3 and 7000^3 (rows of A and B of 10,000 and 14,000 bytes),
// pairs where rows are aligned (4096^3) or only those of A or of B straddle lines (8192 x 8192 x
// 5000 and 4096 x 5000 x 4096; at the first the rounds alone would take four), or where four
// would add a round (2048 x 2048 x 5000), and 192 x 192 where the rule takes it (3000^3).
TEST_CASE("ch26: which shapes take clusters of four", "[ch26][fp16]") {
  ch26_hopper();
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const gemm::Variant v = gemm_tests::find(ch26::variants(), "", gemm::Precision::FP16);
  using Case = std::pair<gemm::Shape, const char*>;
  for (const auto& [shape, note] :
       {Case{{5000, 5000, 5000}, "tiles of 128 x 256, clusters of four;"},
        {{7000, 7000, 7000}, "tiles of 128 x 256, clusters of four;"},
        {{4096, 4096, 4096}, "tiles of 128 x 256;"},
        {{3000, 3000, 3000}, "tiles of 192 x 192;"},
        {{2048, 2048, 5000}, "tiles of 128 x 256;"},
        {{4096, 5000, 4096}, "tiles of 128 x 256;"},
        {{8192, 8192, 5000}, "tiles of 128 x 256;"}}) {
    INFO(sms << " SMs");
    if (sms != 132) continue;  // the rule's rounds depend on the SMs and the clusters that fit
    gemm_tests::check_rule_note(v, shape, note);
  }
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory.
TEST_CASE("ch26: clusters of four, no memory for the flags: cudaErrorMemoryAllocation, C "
          "untouched",
          "[.][ch26][fp16][no_memory]") {
  ch26_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch26::variants(), "fp16_128x256x64_s4_c4"), 1024,
                              1024, 4096, "no GPU memory for stream-K's flags");
}
