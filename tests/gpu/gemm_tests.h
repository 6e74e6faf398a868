// The checks every chapter's GPU tests run: the shape and alpha/beta matrix against the FP64
// reference with NaN-poisoned C, on aligned buffers and with every pointer one element past an
// aligned address, rejected arguments, NaN/Inf propagation, a checker that must catch one
// corrupted element; and for each entry point of the chapter contract, that it runs its default
// variant bit for bit and that first calls from several host threads at once all succeed.
// A test file declares its chapter (GEMM_DECLARE_VARIANTS, _SGEMM, _HGEMM, _BGEMM) and tests its
// entry points and its variants, by name; both come from the chapter's NN_x_variants objects (its
// compiled main.cu). Every check reads the inputs of the variant's precision (FP32, FP16 or BF16
// copies of the same A and B) and compares with the reference and tolerance of that precision.
#pragma once

#include "../catch_compat.h"

#include "harness.h"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace gemm_tests {

// Which global-access path a launcher reports (LaunchInfo::access): `wide` when K and N are
// multiples of per_16 elements and A, B, C 16-byte aligned (per_16 0: never), else `narrow`;
// `empty_k` where K is 0, if the launcher says something else then.
struct Paths {
  int per_16 = 0;
  const char* wide = "16-byte";
  const char* narrow = "element";
  const char* empty_k = nullptr;
};
inline constexpr Paths element_only{0};
inline constexpr Paths float4_paths{4};  // FP32 and TF32 inputs: 4 floats per 16 bytes
inline constexpr Paths half8_paths{8};   // FP16 and BF16 inputs: 8 per 16 bytes
inline constexpr Paths tma_paths{8, "tma", "tma staged", "element"};

// A copy of a variant of the chapter, found by name ("" and a precision: the default of that
// precision).
gemm::Variant find(const std::vector<gemm::Variant>& variants, const std::string& name,
                   gemm::Precision p = gemm::Precision::FP32);

// A contract entry point (chNN::sgemm, chNN::hgemm or chNN::bgemm).
struct EntryPoint {
  gemm::SgemmFn sgemm = nullptr;
  gemm::HgemmFn hgemm = nullptr;
  gemm::BgemmFn bgemm = nullptr;
  EntryPoint(gemm::SgemmFn f) : sgemm(f) {}
  EntryPoint(gemm::HgemmFn f) : hgemm(f) {}
  EntryPoint(gemm::BgemmFn f) : bgemm(f) {}
  // The default variant it must run: the first with a launcher of the same input type.
  gemm::Variant default_of(const std::vector<gemm::Variant>& variants) const;
};

void check_shape_matrix(const gemm::Variant& v, const Paths& paths);
void check_rejected_arguments(const gemm::Variant& v);
void check_nonfinite_propagation(const gemm::Variant& v);
void check_corruption_is_caught(const gemm::Variant& v);
void check_entry_point_runs_default(EntryPoint e, const gemm::Variant& v);
void check_concurrent_first_calls(EntryPoint e, const gemm::Variant& v);
// 16-28: C one element past an aligned address; a launch that finds no GPU memory for its scratch.
void check_c_one_past_aligned(const gemm::Variant& v);
void check_no_memory(const gemm::Variant& v, int M, int N, int K, const char* why);
// 17-28: tiles shared out among clusters give the same bits in two runs.
void check_shared_out_same_bits(const gemm::Variant& v, int k_splits, int M = 1024, int N = 1024,
                                int K = 4096);
// 26-28: the same where how many clusters share a tile depends on how many fit on the GPU: the
// first launch says it (and must cut every tile along K).
void check_shared_out_as_launched(const gemm::Variant& v, int M, int N, int K);
// 24-28: a launch of the entry point's variant with beta 0.5 names the choice `note` begins with.
void check_rule_note(const gemm::Variant& v, const gemm::Shape& s, const char* note);
// 18-19: 8192 x 4096 x K for each K (a few k-tiles per tile, several tiles per cluster), checked.
void check_short_pieces(const gemm::Variant& v, std::initializer_list<int> Ks, std::uint64_t seed);
// 20: C of 1-128 rows against N and K in the thousands, aligned and not, beta 0 and not.
void check_skinny(const gemm::Variant& v);
// 21: copies of A and B from every other shift, C's unaligned rows (rows: the variant writes
// them from the buffers; rows_with_beta: with beta not 0 as well), beta 0 and not.
// shares_out: tiles are shared out among clusters at 600 x 601 x 2048 (25's tiles of 64 rows: not).
void check_staged(const gemm::Variant& v, bool rows, bool rows_with_beta = false,
                  bool shares_out = true);

inline void always() {}

// For the chapters that run only on a Hopper GPU from a build with sm_90a code (11 on): elsewhere
// the test says why and exits 77, which CTest reports as skipped.
void require_hopper(const std::vector<gemm::Variant>& variants);

}  // namespace gemm_tests

// The chapter's variants (main.cu) and the entry points of the contract it defines (kernel.cu).
#define GEMM_DECLARE_VARIANTS(NS)        \
  namespace NS {                         \
  std::vector<gemm::Variant> variants(); \
  }
#define GEMM_DECLARE_SGEMM(NS)                                                       \
  namespace NS {                                                                     \
  cudaError_t sgemm(int, int, int, float, const float*, const float*, float, float*, \
                    cudaStream_t);                                                   \
  }
#define GEMM_DECLARE_HGEMM(NS)                                                         \
  namespace NS {                                                                       \
  cudaError_t hgemm(int, int, int, float, const __half*, const __half*, float, float*, \
                    cudaStream_t);                                                     \
  }
#define GEMM_DECLARE_BGEMM(NS)                                                              \
  namespace NS {                                                                            \
  cudaError_t bgemm(int, int, int, float, const __nv_bfloat16*, const __nv_bfloat16*, float, \
                    float*, cudaStream_t);                                                  \
  }

// The four test cases of one variant (VARIANT: an expression giving a gemm::Variant), named NAME;
// REQUIRE_GPU() first exits 77 (CTest: skipped) where the GPU cannot run the chapter (10: Hopper).
#define GEMM_TESTS_OF_IF(REQUIRE_GPU, TAG, NAME, VARIANT, PATHS)                             \
  TEST_CASE(NAME ": matches the FP64 reference over the shape and alpha/beta matrix", TAG) { \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_shape_matrix(VARIANT, PATHS);                                          \
  }                                                                                          \
  TEST_CASE(NAME ": rejects impossible arguments without launching", TAG) {                  \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_rejected_arguments(VARIANT);                                           \
  }                                                                                          \
  TEST_CASE(NAME ": propagates NaN and Inf from A", TAG) {                                   \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_nonfinite_propagation(VARIANT);                                        \
  }                                                                                          \
  TEST_CASE(NAME ": a result with one corrupted element fails the check", TAG) {             \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_corruption_is_caught(VARIANT);                                         \
  }

// REQUIRE_GPU for a Hopper chapter: GEMM_REQUIRE_HOPPER(ch11) defines ch11_hopper().
#define GEMM_REQUIRE_HOPPER(NS)                 \
  static void NS##_hopper() {                   \
    gemm_tests::require_hopper(NS::variants()); \
  }

// A variant of the chapter's main.cu, by name.
#define GEMM_VARIANT_TESTS_IF(REQUIRE_GPU, TAG, NS, NAME, PATHS) \
  GEMM_TESTS_OF_IF(REQUIRE_GPU, TAG, #NS " " NAME, gemm_tests::find(NS::variants(), NAME), PATHS)
#define GEMM_VARIANT_TESTS(TAG, NS, NAME, PATHS) \
  GEMM_VARIANT_TESTS_IF(gemm_tests::always, TAG, NS, NAME, PATHS)

// An entry point of the contract (NAME: "ch07::sgemm"): its default variant's four test cases,
// that the entry point runs that variant bit for bit, and first calls from several threads
// ([first_calls]: CTest runs each of those in a fresh process, tests/CMakeLists.txt).
#define GEMM_ENTRY_POINT_TESTS_IF(REQUIRE_GPU, TAG, NS, NAME, ENTRY, PATHS)                        \
  GEMM_TESTS_OF_IF(REQUIRE_GPU, TAG, NAME,                                                         \
                   gemm_tests::EntryPoint(ENTRY).default_of(NS::variants()), PATHS)                \
  TEST_CASE(NAME ": runs its default variant, bit for bit", TAG) {                                 \
    REQUIRE_GPU();                                                                                 \
    gemm_tests::check_entry_point_runs_default(                                                    \
        ENTRY, gemm_tests::EntryPoint(ENTRY).default_of(NS::variants()));                          \
  }                                                                                                \
  TEST_CASE(NAME ": first calls from several host threads at once, each on its own stream",       \
            TAG "[first_calls]") {                                                                 \
    REQUIRE_GPU();                                                                                 \
    gemm_tests::check_concurrent_first_calls(                                                      \
        ENTRY, gemm_tests::EntryPoint(ENTRY).default_of(NS::variants()));                          \
  }
#define GEMM_ENTRY_POINT_TESTS(TAG, NS, NAME, ENTRY, PATHS) \
  GEMM_ENTRY_POINT_TESTS_IF(gemm_tests::always, TAG, NS, NAME, ENTRY, PATHS)
