#include "gemm_tests.h"

#include <utility>

GEMM_DECLARE_VARIANTS(ch22)
GEMM_DECLARE_HGEMM(ch22)
GEMM_DECLARE_BGEMM(ch22)

GEMM_REQUIRE_HOPPER(ch22)

// The entry point: 21's products and paths, and 192 x 192 tiles where rows straddle L2 lines.
GEMM_ENTRY_POINT_TESTS_IF(ch22_hopper, "[ch22][fp16]", ch22, "ch22::hgemm (FP16)", ch22::hgemm,
                          gemm_tests::tma_paths)
GEMM_ENTRY_POINT_TESTS_IF(ch22_hopper, "[ch22][bf16]", ch22, "ch22::bgemm (BF16)", ch22::bgemm,
                          gemm_tests::tma_paths)

TEST_CASE("ch22::hgemm (FP16): C one element past an aligned address", "[ch22][fp16]") {
  ch22_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch22::variants(), "", gemm::Precision::FP16));
}

// The 192-row tile on its own, every path: the shape matrix (edge tiles of 192 rows among them),
// stream-K's pieces added in order by three consumer warpgroups' flags (5 and 4 clusters to a
// tile), short pieces whose one deferred chunk leaves through the warpgroup's one buffer, C one
// element off, the staged copies.
TEST_CASE("ch22: 192 x 192 tiles on every path", "[ch22][fp16]") {
  ch22_hopper();
  const gemm::Variant tall = gemm_tests::find(ch22::variants(), "fp16_192x192x64_s4");
  gemm_tests::check_shape_matrix(tall, gemm_tests::tma_paths);
  gemm_tests::check_shared_out_same_bits(tall, 5);
  gemm_tests::check_shared_out_same_bits(tall, 4, 600, 600, 2048);
  gemm_tests::check_short_pieces(tall, {64, 136, 520}, 91);
  gemm_tests::check_c_one_past_aligned(tall);
  gemm_tests::check_staged(tall, true);
}

// The rule takes 192 x 192 where a row of A or B is an odd number of 16-byte units and it fills
// the rounds better (3000^3: 2 rounds against 128 x 192's 3), and keeps 21's tiles where the rows
// are 128-byte aligned (3008^3) or a wider tile fills the rounds as well (5000^3). C^T and the
// staged copies as in 21.
TEST_CASE("ch22: the rule's tiles at 3000, 3008 and 5000; C^T and the copies unchanged",
          "[ch22][fp16]") {
  ch22_hopper();
  const gemm::Variant v = gemm_tests::find(ch22::variants(), "", gemm::Precision::FP16);
  for (const auto& [n, tile] : {std::pair<int, const char*>{3000, "tiles of 192 x 192"},
                                {3008, "tiles of 128 x 192"},
                                {5000, "tiles of 128 x 256"}}) {
    INFO(n << "^3");
    gemm::Problem prob(n, n, n, 7, true);
    gemm::LaunchInfo info;
    REQUIRE(v.launch(prob, 1.0f, 0.0f, nullptr, &info) == cudaSuccess);
    CUDA_CHECK(cudaDeviceSynchronize());
    CHECK(info.note.rfind(tile, 0) == 0);
  }
  gemm_tests::check_staged(v, true);
  gemm_tests::check_skinny(v);
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since they take all of the GPU's memory. The
// second at 3000^3's tile: the flags of 192 x 192's stream-K.
TEST_CASE(
    "ch22::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch22][fp16][no_memory]") {
  ch22_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch22::variants(), "", gemm::Precision::FP16), 16,
                              2000, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch22: 192 x 192, no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch22][fp16][no_memory]") {
  ch22_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch22::variants(), "fp16_192x192x64_s4"), 1024,
                              1024, 4096, "no GPU memory for stream-K's flags");
}
