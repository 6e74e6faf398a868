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
  cudaError_t operator()(gemm::Problem& p, float alpha, float beta) const;
};

void check_shape_matrix(const Launcher& l);
void check_rejected_arguments(const Launcher& l);
void check_nonfinite_propagation(const Launcher& l);
void check_corruption_is_caught(const Launcher& l);

}  // namespace gemm_tests

// The four test cases every entry point gets, named after it and tagged with its chapter.
#define GEMM_CHAPTER_TESTS(TAG, NAME, ...)                                                   \
  TEST_CASE(NAME ": matches the FP64 reference over the shape and alpha/beta matrix", TAG) { \
    gemm_tests::check_shape_matrix(gemm_tests::Launcher{NAME, __VA_ARGS__});                 \
  }                                                                                          \
  TEST_CASE(NAME ": rejects impossible arguments without launching", TAG) {                  \
    gemm_tests::check_rejected_arguments(gemm_tests::Launcher{NAME, __VA_ARGS__});           \
  }                                                                                          \
  TEST_CASE(NAME ": propagates NaN and Inf from A", TAG) {                                   \
    gemm_tests::check_nonfinite_propagation(gemm_tests::Launcher{NAME, __VA_ARGS__});        \
  }                                                                                          \
  TEST_CASE(NAME ": a result with one corrupted element fails the check", TAG) {             \
    gemm_tests::check_corruption_is_caught(gemm_tests::Launcher{NAME, __VA_ARGS__});         \
  }
