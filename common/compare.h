// The allclose check of a GEMM result against its FP64 reference, with a report like numpy's
// assert_allclose. Pure host code, tested on the CPU.
#pragma once

#include "precision.h"

#include <cstddef>
#include <string>

namespace gemm {

struct CompareResult {
  bool pass = false;
  std::size_t total = 0;
  std::size_t mismatches = 0;  // elements outside the tolerance, non-finite ones included
  double max_abs = 0.0;        // max |got - ref| over finite pairs
  double max_rel = 0.0;        // max |got - ref| / |ref| over finite pairs with ref != 0
  double worst_ratio = 0.0;    // max |got - ref| / (atol + rtol*|ref|): below 1 passes
  std::size_t first_bad = 0;   // index of the first mismatch (valid if mismatches > 0)
  double first_got = 0.0, first_ref = 0.0;
  Tolerance tol;
};

// Compares n elements. A NaN or Inf in `got` never passes, whatever the reference holds.
CompareResult allclose(const float* got, const double* ref, std::size_t n, Tolerance tol);

// Root mean square of the reference (finite elements only).
double rms(const double* ref, std::size_t n);

// The multi-line report: tolerance, mismatch count and percent, max differences, first mismatch
// as C[row, col] of a matrix with `cols` columns.
std::string report(const CompareResult& r, int cols);

}  // namespace gemm
