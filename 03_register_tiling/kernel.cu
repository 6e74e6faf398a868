// 03_register_tiling: each thread computes a TM x TN microtile of C kept in registers. For every
// k it reads TM values of A and TN values of B from shared memory into a_frag and b_frag and does
// their TM x TN outer product, so each value read from shared memory feeds TN or TM FMAs.
// What should move: shared-memory loads per FMA, 2 -> (TM + TN) / (TM * TN) = 1/4 at 8x8; global
// loads per FMA, 2/TILE -> 1/BM + 1/BN. The block tile also loads A and B with float4 where the
// shape and pointers allow 16-byte accesses, one float at a time where they do not.
#include "gemm_check.h"
#include "kernel_utils.cuh"

namespace ch03 {

// A block of (BM/TM) x (BN/TN) threads covers a BM x BN block of C; thread (thread_row,
// thread_col) owns rows thread_row*TM .. +TM-1 and columns thread_col*TN .. +TN-1 of it.
// Asking for 2 blocks per SM caps registers at 128/thread, so two blocks (16 warps) stay resident.
// WIDE, chosen by the launcher: 16-byte global loads and stores; otherwise the same kernel moves
// one float per access, which any K, N and 4-byte aligned A, B, C allow.
template <int BM, int BN, int BK, int TM, int TN, bool WIDE>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), 2)
    gemm_kernel(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                float* C) {
  constexpr int NUM_THREADS = (BM / TM) * (BN / TN);
  constexpr int A_VECS = BM * BK / 4, B_VECS = BK * BN / 4;  // float4s per tile
  constexpr int A_PASSES = gemm::ceil_div(A_VECS, NUM_THREADS);
  constexpr int B_PASSES = gemm::ceil_div(B_VECS, NUM_THREADS);
  static_assert(BK % 4 == 0 && BN % 4 == 0 && TN % 4 == 0, "float4 loads and stores");
  __shared__ float As[BM][BK];
  __shared__ float Bs[BK][BN];

  const int tid = threadIdx.x;
  const int thread_row = tid / (BN / TN);
  const int thread_col = tid % (BN / TN);
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;

  float acc[TM][TN] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    // Consecutive threads load consecutive float4s along a row: coalesced 16-byte loads
    // (element by element, each of the four 4-byte loads puts the lanes 16 bytes apart). A float4
    // that starts past the matrix is zeros; one that crosses its edge (element by element) is cut.
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / 4), c = i % (BK / 4) * 4;
      const int row = block_row + r, k = k0 + c;
      const float4 v = row < M && k < K ? gemm::load4<WIDE>(&A[row * K + k], K - k) : float4{};
      gemm::store_float4(&As[r][c], v);
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / 4), c = i % (BN / 4) * 4;
      const int k = k0 + r, col = block_col + c;
      const float4 v = k < K && col < N ? gemm::load4<WIDE>(&B[k * N + col], N - col) : float4{};
      gemm::store_float4(&Bs[r][c], v);
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a_frag[TM], b_frag[TN];
      // A column: TM scalar loads (consecutive rows of As are BK floats apart).
#pragma unroll
      for (int i = 0; i < TM; ++i)
        a_frag[i] = As[thread_row * TM + i][k];
        // B row: TN/4 float4 loads.
#pragma unroll
      for (int j = 0; j < TN; j += 4) {
        const float4 v = gemm::load_float4(&Bs[k][thread_col * TN + j]);
        b_frag[j] = v.x, b_frag[j + 1] = v.y, b_frag[j + 2] = v.z, b_frag[j + 3] = v.w;
      }
      // j outer, i inner: the order changes ptxas's register allocation and schedule, not the
      // arithmetic. It is the same in 03-07, so that no diff between chapters carries it.
#pragma unroll
      for (int j = 0; j < TN; ++j)
#pragma unroll
        for (int i = 0; i < TM; ++i)
          acc[i][j] += a_frag[i] * b_frag[j];
    }
    __syncthreads();  // the tiles are overwritten next iteration
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = block_row + thread_row * TM + i;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int col = block_col + thread_col * TN + j;
      if (row < M && col < N) {
        const float4 v{acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]};
        gemm::store4<WIDE>(&C[row * N + col], v, alpha, beta, N - col);
      }
    }
  }
}

template <int BM, int BN, int BK, int TM, int TN>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const float* A, const float* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const dim3 block((BM / TM) * (BN / TN));
  auto kernel = gemm_kernel<BM, BN, BK, TM, TN, false>;
  if (gemm::wide_access(4, K, N, A, B, C, info)) kernel = gemm_kernel<BM, BN, BK, TM, TN, true>;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM));
    kernel<<<grid, block, 0, stream>>>(rows, N, K, alpha, A + std::size_t(row0) * K, B, beta,
                                       C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// Post 002's baseline: 128x128 block tile, BK 16, 8x8 per thread, 256 threads.
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<128, 128, 16, 8, 8>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch03
