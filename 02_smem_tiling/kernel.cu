// 02_smem_tiling: a block stages a TILE x TILE tile of A and of B in shared memory and every
// thread reads them TILE times from there, instead of from global memory.
// What should move: global loads per FMA fall from 2 to 2/TILE (each element loaded once per
// block, reused TILE times); shared-memory loads take their place, 2 per FMA.
#include "gemm_check.h"
#include "kernel_utils.cuh"

namespace ch02 {

// A block of TILE x TILE threads covers a TILE x TILE block of C. threadIdx.x runs along N as in
// 01: the tile loads are coalesced, Bs[k][tx] is read by a warp from 32 consecutive banks and
// As[ty][k] is one broadcast, so the inner loop has no bank conflicts.
template <int TILE>
__global__ void gemm_kernel(int M, int N, int K, float alpha, const float* A, const float* B,
                            float beta, float* C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int ty = threadIdx.y, tx = threadIdx.x;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;

  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    // Out-of-range elements are stored as zeros: they add nothing to acc, and no thread returns
    // early, so every thread reaches both barriers.
    As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // the tiles are overwritten next iteration
  }
  if (row < M && col < N) C[row * N + col] = gemm::epilogue(acc, alpha, beta, &C[row * N + col]);
}

template <int TILE>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const float* A, const float* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const dim3 block(TILE, TILE);
  return gemm::for_each_row_slice(M, TILE, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, TILE), gemm::ceil_div(rows, TILE));
    gemm_kernel<TILE><<<grid, block, 0, stream>>>(rows, N, K, alpha, A + std::size_t(row0) * K, B,
                                                  beta, C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TILE 32 was the fastest of 8/16/32 on the H200 (see README.md).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<32>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch02
