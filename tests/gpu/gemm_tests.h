// The checks every chapter's GPU tests run: the shape and alpha/beta matrix against the FP64
// reference with NaN-poisoned C, on aligned buffers and with every pointer one element past an
// aligned address, rejected arguments, NaN/Inf propagation, and a checker that
// must catch one corrupted element.
#pragma once

#include "../catch_compat.h"

#include "problem.h"

#include <string>

namespace gemm_tests {

struct Shape {
  int M, N, K;
};

// Entry points under test: FP32 launchers (FP32 or TF32 math) and FP16-input launchers.
struct Launcher {
  std::string name;
  gemm::SgemmFn sgemm = nullptr;
  gemm::HgemmFn hgemm = nullptr;
  gemm::Precision precision = gemm::Precision::FP32;
  // Elements per 16-byte access on the launcher's wide path; 0: it has none (01, 02).
  int per_16 = 0;
  // What gemm::access_path() says for the wide path and the other one (10: "tma" where TMA can
  // describe A and B, which also needs K > 0, and 09's element path elsewhere).
  std::string wide_path = "16-byte", narrow_path = "element";
  bool wide_needs_k = false;
  cudaError_t operator()(gemm::Problem& p, float alpha, float beta) const;
};

void check_shape_matrix(const Launcher& l);
void check_rejected_arguments(const Launcher& l);
void check_nonfinite_propagation(const Launcher& l);
void check_corruption_is_caught(const Launcher& l);

}  // namespace gemm_tests

// The four test cases every entry point gets, named after it and tagged with its chapter.
#define GEMM_CHAPTER_TESTS(TAG, NAME, ...) \
  GEMM_CHAPTER_TESTS_IF(gemm_tests::always, TAG, NAME, __VA_ARGS__)

namespace gemm_tests {
inline void always() {}
}  // namespace gemm_tests

// The same, each test case first calling REQUIRE_GPU(), which exits 77 (CTest: skipped) when
// the GPU cannot run the chapter (10: Hopper only).
#define GEMM_CHAPTER_TESTS_IF(REQUIRE_GPU, TAG, NAME, ...)                                   \
  TEST_CASE(NAME ": matches the FP64 reference over the shape and alpha/beta matrix", TAG) { \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_shape_matrix(gemm_tests::Launcher{NAME, __VA_ARGS__});                 \
  }                                                                                          \
  TEST_CASE(NAME ": rejects impossible arguments without launching", TAG) {                  \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_rejected_arguments(gemm_tests::Launcher{NAME, __VA_ARGS__});           \
  }                                                                                          \
  TEST_CASE(NAME ": propagates NaN and Inf from A", TAG) {                                   \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_nonfinite_propagation(gemm_tests::Launcher{NAME, __VA_ARGS__});        \
  }                                                                                          \
  TEST_CASE(NAME ": a result with one corrupted element fails the check", TAG) {             \
    REQUIRE_GPU();                                                                           \
    gemm_tests::check_corruption_is_caught(gemm_tests::Launcher{NAME, __VA_ARGS__});         \
  }
