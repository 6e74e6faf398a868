// 01_naive: one thread computes one element of C, reading a row of A and a column of B straight
// from global memory. The baseline every later chapter is measured against.
// What limits it: every element of A is re-read N times and every element of B M times
// (2*M*N*K loads for 2*M*N*K FLOPs); only the L1/L2 caches stand between it and DRAM.
#include "gemm_check.h"
#include "kernel_utils.cuh"

namespace ch01 {

// A block of BM x BN threads covers a BM x BN block of C. threadIdx.x runs along N, so the 32
// threads of a warp read 32 consecutive floats of one row of B (one 128-byte line) and write 32
// consecutive floats of C, while they all read the same element of A (a broadcast).
template <int BM, int BN>
__global__ void gemm_kernel(int M, int N, int K, float alpha, const float* A, const float* B,
                            float beta, float* C) {
  const int row = blockIdx.y * BM + threadIdx.y;
  const int col = blockIdx.x * BN + threadIdx.x;
  if (row >= M || col >= N) return;

  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = gemm::epilogue(acc, alpha, beta, &C[row * N + col]);
}

template <int BM, int BN>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const float* A, const float* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const dim3 block(BN, BM);
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM));
    gemm_kernel<BM, BN><<<grid, block, 0, stream>>>(rows, N, K, alpha, A + std::size_t(row0) * K, B,
                                                    beta, C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<8, 32>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch01
