#include "gemm_tests.h"

#include <utility>

GEMM_DECLARE_VARIANTS(ch27)
GEMM_DECLARE_HGEMM(ch27)
GEMM_DECLARE_BGEMM(ch27)

GEMM_REQUIRE_HOPPER(ch27)

// The entry point: 26's products, tiles and clusters, and one round of 128 x 64 tiles in clusters
// of one with C from the registers where rows do not straddle L2's lines.
GEMM_ENTRY_POINT_TESTS_IF(ch27_hopper, "[ch27][fp16]", ch27, "ch27::hgemm (FP16)", ch27::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch27_hopper, "[ch27][bf16]", ch27, "ch27::bgemm (BF16)", ch27::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch27::hgemm (FP16): C one element past an aligned address", "[ch27][fp16]") {
  ch27_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch27::variants(), "", gemm::Precision::FP16));
}

// 128 x 64 tiles with C from the registers in pairs, and alone with C through the TMA unit or from
// the registers: the shape matrix (their blocks loop over tiles where C has more than one round),
// stream-K's pieces added in order where few tiles leave SMs idle, and for the rule's kernel
// (alone, from the registers) C one element off and the staged copies, beta 0 and not.
TEST_CASE("ch27: 128 x 64 tiles alone and from the registers on every path", "[ch27][fp16]") {
  ch27_hopper();
  for (const char* name :
       {"fp16_128x64x64_s8_regs", "fp16_128x64x64_s8_c1", "fp16_128x64x64_s8_c1_regs"}) {
    INFO(name);
    const gemm::Variant v = gemm_tests::find(ch27::variants(), name);
    gemm_tests::check_shape_matrix(v, gemm_tests::tma_paths);
    gemm_tests::check_shared_out_as_launched(v, 600, 600, 2048);
    gemm_tests::check_shared_out_as_launched(v, 256, 256, 8192);
  }
  gemm_tests::check_short_pieces(gemm_tests::find(ch27::variants(), "fp16_128x64x64_s8_c1"),
                                 {64, 136, 520}, 93);
  const gemm::Variant alone = gemm_tests::find(ch27::variants(), "fp16_128x64x64_s8_c1_regs");
  gemm_tests::check_c_one_past_aligned(alone);
  gemm_tests::check_staged(alone, false);
}

// The rule (on 132 SMs): one round of 128 x 64 tiles alone, C from the registers, at 256^3, 512^3
// and 1024^3 (8, 32 and 128 tiles) and at 8192 x 128 x 8192 (128); in pairs through the TMA unit
// where rows straddle lines (1000^3: rows of 2,000 bytes, 125 units of 16) or stream-K shares the
// tiles out (8192 x 16 x 8192: 64 tiles of 128 k-tiles); 26's wider tiles where the rule takes them
// (1024 x 1152 x 1024: 144 tiles of 128 x 64 would be more than a round).
TEST_CASE("ch27: which shapes take one round alone", "[ch27][fp16]") {
  ch27_hopper();
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const gemm::Variant v = gemm_tests::find(ch27::variants(), "", gemm::Precision::FP16);
  using Case = std::pair<gemm::Shape, const char*>;
  for (const auto& [shape, note] :
       {Case{{1024, 1024, 1024}, "tiles of 128 x 64, clusters of one, C from the registers"},
        {{512, 512, 512}, "tiles of 128 x 64, clusters of one, C from the registers"},
        {{256, 256, 256}, "tiles of 128 x 64, clusters of one, C from the registers"},
        {{8192, 128, 8192}, "tiles of 128 x 64, clusters of one, C from the registers"},
        {{1000, 1000, 1000}, "tiles of 128 x 64;"},
        {{8192, 16, 8192}, "tiles of 128 x 64;"},
        {{1024, 1152, 1024}, "tiles of 128 x 128;"},
        {{2048, 2048, 2048}, "tiles of 128 x 256;"},
        {{5000, 5000, 5000}, "tiles of 128 x 256, clusters of four;"}}) {
    INFO(sms << " SMs");
    if (sms != 132) continue;  // the rule's rounds depend on the SMs
    gemm_tests::check_rule_note(v, shape, note);
  }
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory.
TEST_CASE("ch27: one round alone, no memory for the flags: cudaErrorMemoryAllocation, C "
          "untouched",
          "[.][ch27][fp16][no_memory]") {
  ch27_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch27::variants(), "fp16_128x64x64_s8_c1_regs"), 600,
                              600, 2048, "no GPU memory for stream-K's flags");
}
