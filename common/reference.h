// The double-precision reference on the CPU: used by the tests, and to validate the cuBLAS DGEMM
// reference that the drivers use for large shapes.
#pragma once

namespace gemm {

// out = alpha * A * B + beta * C0 in double, row-major; C0 is not read when beta == 0.
void reference_gemm_cpu(int M, int N, int K, double alpha, const float* A, const float* B,
                        double beta, const float* C0, double* out);

}  // namespace gemm
