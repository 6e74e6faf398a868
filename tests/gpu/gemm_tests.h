// The checks every chapter's GPU tests run: the shape and alpha/beta matrix against
// the FP64 reference with NaN-poisoned C, rejected arguments, NaN/Inf propagation, and a checker
// that must catch one corrupted element.
#pragma once

#include "../catch_compat.h"

#include "problem.h"

#include <functional>
#include <string>

namespace gemm_tests {

struct Shape {
  int M, N, K;
};

// Which shapes a launcher must accept (e.g. float4 paths need K % 4 == 0 and N % 4 == 0); the
// others must be refused with cudaErrorInvalidValue and a reason, without touching C.
using Accepts = std::function<bool(const Shape&)>;
inline bool accepts_all(const Shape&) {
  return true;
}
// 16-byte accesses: 4 floats (the float4 chapters, TF32 copies) or 8 halves along K and N.
inline bool float4_shapes(const Shape& s) {
  return s.K % 4 == 0 && s.N % 4 == 0;
}
inline bool half8_shapes(const Shape& s) {
  return s.K % 8 == 0 && s.N % 8 == 0;
}

// Entry points under test: FP32 launchers (FP32 or TF32 math) and FP16-input launchers.
struct Launcher {
  std::string name;
  gemm::SgemmFn sgemm = nullptr;
  gemm::HgemmFn hgemm = nullptr;
  gemm::Precision precision = gemm::Precision::FP32;
  Accepts accepts = accepts_all;
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
