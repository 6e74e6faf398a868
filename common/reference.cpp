#include "reference.h"

#include <cstddef>
#include <vector>

namespace gemm {

void reference_gemm_cpu(int M, int N, int K, double alpha, const float* A, const float* B,
                        double beta, const float* C0, double* out) {
  std::vector<double> row(static_cast<std::size_t>(N));
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j)
      row[j] = 0.0;
    // i-k-j order: the inner loop runs along rows of B and of the output.
    for (int k = 0; k < K; ++k) {
      const double a = A[static_cast<std::size_t>(i) * K + k];
      const float* b = B + static_cast<std::size_t>(k) * N;
      for (int j = 0; j < N; ++j)
        row[j] += a * b[j];
    }
    double* o = out + static_cast<std::size_t>(i) * N;
    const float* c = C0 ? C0 + static_cast<std::size_t>(i) * N : nullptr;
    for (int j = 0; j < N; ++j)
      o[j] = beta == 0.0 ? alpha * row[j] : alpha * row[j] + beta * c[j];
  }
}

}  // namespace gemm
