// 05_swizzle: the column (m) index of As_T is XOR-swizzled with the k index, so the transposed
// scalar stores of a warp land in 32 different banks while the float4 reads of a_frag stay
// 16-byte aligned and in order.
// What should move: shared-store bank conflicts of the A tile, 4-way -> none (ncu: wavefronts per
// scalar STS 4 -> 1; over all stores, with B's STS.128 at 4 each, 4.0 -> 1.6).
#include "gemm_check.h"
#include "kernel_utils.cuh"

namespace ch05 {

// The A-tile loads give a warp 128/BK consecutive values of m (bits 0..log2(128/BK)-1 vary) and
// BK/4 groups of four k values; unswizzled, every group lands in the same banks. XOR-ing m with
// (k / 4) * (128 / BK) gives each group its own bank bits just above those of m: 32 lanes, 32
// banks. The XOR leaves the low two bits of m alone (128 / BK >= 4), so a float4 read of four
// consecutive m stays contiguous, aligned and in order; and it stays inside m's 32-float block.
template <int BK>
__device__ __forceinline__ int swizzle(int k, int m) {
  return m ^ ((k / 4) * (128 / BK));
}

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
  static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0, "float4 accesses");
  static_assert(BM % 32 == 0 && BK <= 32, "the swizzle stays inside 32-float blocks of m");
  __shared__ float As_T[BK][BM];  // As_T[k][swizzle(k, m)] = A[m][k]
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
      // Transposed, so four scalar stores, now conflict-free: see swizzle().
      As_T[c + 0][swizzle<BK>(c + 0, r)] = v.x;
      As_T[c + 1][swizzle<BK>(c + 1, r)] = v.y;
      As_T[c + 2][swizzle<BK>(c + 2, r)] = v.z;
      As_T[c + 3][swizzle<BK>(c + 3, r)] = v.w;
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
      // A column: a row of As_T, TM/4 float4 loads.
#pragma unroll
      for (int i = 0; i < TM; i += 4) {
        const float4 v = gemm::load_float4(&As_T[k][swizzle<BK>(k, thread_row * TM + i)]);
        a_frag[i] = v.x, a_frag[i + 1] = v.y, a_frag[i + 2] = v.z, a_frag[i + 3] = v.w;
      }
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

}  // namespace ch05
