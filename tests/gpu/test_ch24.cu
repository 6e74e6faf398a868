#include "gemm_tests.h"

#include <string>
#include <utility>

GEMM_DECLARE_VARIANTS(ch24)
GEMM_DECLARE_HGEMM(ch24)
GEMM_DECLARE_BGEMM(ch24)

GEMM_REQUIRE_HOPPER(ch24)

// The entry point: 23's products, tiles and paths, C^T's tiles side by side for 65-128 rows of C
// (the shape matrix's tall and skinny shapes among them).
GEMM_ENTRY_POINT_TESTS_IF(ch24_hopper, "[ch24][fp16]", ch24, "ch24::hgemm (FP16)", ch24::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch24_hopper, "[ch24][bf16]", ch24, "ch24::bgemm (BF16)", ch24::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch24::hgemm (FP16): C one element past an aligned address", "[ch24][fp16]") {
  ch24_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch24::variants(), "", gemm::Precision::FP16));
}

// Side by side on its own, every path: the shape matrix (an odd count of tile columns leaves a
// cluster's second block past C's last column), stream-K's pieces added in order (4 clusters to a
// tile at 600 x 600 x 2048), many short pieces a cluster, C one element off, the copies (A's box
// half a tile's rows).
TEST_CASE("ch24: 128 x 64 tiles side by side on every path", "[ch24][fp16]") {
  ch24_hopper();
  const gemm::Variant side = gemm_tests::find(ch24::variants(), "fp16_128x64x64_s8_side");
  gemm_tests::check_shape_matrix(side, gemm_tests::tma_paths);
  gemm_tests::check_shared_out_same_bits(side, 4, 600, 600, 2048);
  gemm_tests::check_short_pieces(side, {64, 136, 520}, 91);
  gemm_tests::check_c_one_past_aligned(side);
  gemm_tests::check_staged(side, true, true);
}

// C^T side by side: the skinny shapes (at 64 rows and fewer the cluster's second block has no
// columns of C^T), and 128 and 100 x 4096 x 4096, each tile cut in two along K, the same bits
// each run.
TEST_CASE("ch24: C^T in tiles of 128 x 64 side by side", "[ch24][fp16]") {
  ch24_hopper();
  const gemm::Variant side = gemm_tests::find(ch24::variants(), "fp16_128x64x64_s8_swap_side");
  gemm_tests::check_skinny(side);
  gemm_tests::check_shared_out_same_bits(side, 2, 128, 4096, 4096);
  gemm_tests::check_shared_out_same_bits(side, 2, 100, 4096, 4096);
  gemm_tests::check_staged(side, false);
}

// The rule: C^T's tiles side by side for 65-128 rows of C, stacked for 33-64 (one tile across);
// C's own tiles of 128 x 64 stacked (1024^3), wider ones unchanged (4096^3).
TEST_CASE("ch24: which tiles sit side by side", "[ch24][fp16]") {
  ch24_hopper();
  const gemm::Variant v = gemm_tests::find(ch24::variants(), "", gemm::Precision::FP16);
  using Case = std::pair<gemm::Shape, const char*>;
  for (const auto& [shape, note] :
       {Case{{1024, 1024, 1024}, "tiles of 128 x 64;"},
        {{128, 4096, 4096}, "C^T in tiles of 128 x 64, two side by side"},
        {{65, 4096, 1024}, "C^T in tiles of 128 x 64, two side by side"},
        {{64, 4096, 1024}, "C^T in tiles of 128 x 64;"},
        {{4096, 4096, 4096}, "tiles of 128 x 256;"}}) {
    gemm_tests::check_rule_note(v, shape, note);
  }
  gemm_tests::check_skinny(v);
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since it takes all of the GPU's memory.
TEST_CASE("ch24: side by side, no memory for the aligned copy: cudaErrorMemoryAllocation, C "
          "untouched",
          "[.][ch24][fp16][no_memory]") {
  ch24_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch24::variants(), "fp16_128x64x64_s8_side"), 1000,
                              1000, 1001, "no GPU memory for the aligned copy of A");
}
