// 07_double_buffer: two shared-memory stages. The global loads of tile k+1 are issued into
// registers before tile k is computed and stored into the other stage after it, so their latency
// hides behind the FMAs; one barrier per k-tile instead of two, placed before the tile's last
// step so that warps leave it with FMAs ready to issue. A C of few tiles splits K among blocks.
// What should move: stalls on global loads and barriers (ncu: long_scoreboard and barrier stall
// reasons) down, issue slots used up; registers up by the 4 x (A_PASSES + B_PASSES) in flight,
// occupancy unchanged. Split K: a small C's time down by up to the number of splits.
#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

namespace ch07 {

// Blocks per SM that __launch_bounds__ asks for: 2 caps registers at 128 per thread, so two
// blocks (16 warps) stay resident; thread tiles of more than 64 accumulators can't fit that.
constexpr int blocks_per_sm(int TM, int TN) {
  return TM * TN <= 64 ? 2 : 1;
}

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
// thread_col) owns rows thread_row*TM .. +TM-1 and, for j = 0, 4, .., TN-4, the four columns
// thread_col*4 + j*(BN/TN) .. +3 of it (at 128x128 8x8: thread_col*4 and 64 + thread_col*4).
// WIDE, chosen by the launcher: 16-byte global loads and stores; otherwise the same kernel moves
// one float per access, which any K, N and 4-byte aligned A, B, C allow.
// EARLY_BARRIER: each k-tile's barrier comes before its last step's FMAs (else after them).
// FRAG_BUFS 2: fragments double-buffered in registers, step k+1's read while step k's FMAs run.
// Split K (gridDim.z > 1): block z takes k in [z * k_chunk, (z + 1) * k_chunk) and adds alpha *
// its sum into C, which the launcher has already scaled by beta.
template <int BM, int BN, int BK, int TM, int TN, bool EARLY_BARRIER, int FRAG_BUFS, bool WIDE>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), blocks_per_sm(TM, TN))
    gemm_kernel(int M, int N, int K, int k_chunk, float alpha, const float* A, const float* B,
                float beta, float* C) {
  constexpr int NUM_THREADS = (BM / TM) * (BN / TN);
  constexpr int A_VECS = BM * BK / 4, B_VECS = BK * BN / 4;  // float4s per tile
  constexpr int A_PASSES = gemm::ceil_div(A_VECS, NUM_THREADS);
  constexpr int B_PASSES = gemm::ceil_div(B_VECS, NUM_THREADS);
  static_assert(BK % 4 == 0 && BN % 4 == 0 && TM % 4 == 0 && TN % 4 == 0, "float4 accesses");
  static_assert(BM % 32 == 0 && BK <= 32, "the swizzle stays inside 32-float blocks of m");
  __shared__ float As_T[2][BK][BM];  // As_T[stage][k][swizzle(k, m)] = A[m][k]
  __shared__ float Bs[2][BK][BN];

  const int tid = threadIdx.x;
  const int thread_row = tid / (BN / TN);
  const int thread_col = tid % (BN / TN);
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const int k_begin = blockIdx.z * k_chunk, k_end = min(K, k_begin + k_chunk);

  // The next tile, in flight in registers while the current one is computed.
  float4 a_next[A_PASSES], b_next[B_PASSES];
  // Consecutive threads load consecutive float4s along a row: coalesced 16-byte loads
  // (element by element, each of the four 4-byte loads puts the lanes 16 bytes apart). A float4
  // that starts past the matrix is zeros; one that crosses its edge (element by element) is cut.
  const auto load_tile = [&](int k0) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / 4), c = i % (BK / 4) * 4;
      const int row = block_row + r, k = k0 + c;
      a_next[pass] =
          row < M && k < k_end ? gemm::load4<WIDE>(&A[row * K + k], k_end - k) : float4{};
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / 4), c = i % (BN / 4) * 4;
      const int k = k0 + r, col = block_col + c;
      b_next[pass] = k < k_end && col < N ? gemm::load4<WIDE>(&B[k * N + col], N - col) : float4{};
    }
  };
  const auto store_tile = [&](int stage) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / 4), c = i % (BK / 4) * 4;
      const float4 v = a_next[pass];
      // Transposed, so four scalar stores, conflict-free: see swizzle().
      As_T[stage][c + 0][swizzle<BK>(c + 0, r)] = v.x;
      As_T[stage][c + 1][swizzle<BK>(c + 1, r)] = v.y;
      As_T[stage][c + 2][swizzle<BK>(c + 2, r)] = v.z;
      As_T[stage][c + 3][swizzle<BK>(c + 3, r)] = v.w;
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / 4), c = i % (BN / 4) * 4;
      gemm::store_float4(&Bs[stage][r][c], b_next[pass]);
    }
  };

  // Fragments of A and B for one step k; with FRAG_BUFS 2, two sets: step k+1's are read from
  // shared memory while step k's FMAs run.
  float a_frag[FRAG_BUFS][TM], b_frag[FRAG_BUFS][TN];
  const auto load_frags = [&](int buf, int stage, int k) {
#pragma unroll
    for (int i = 0; i < TM; i += 4) {  // A column: a row of As_T, TM/4 float4 loads.
      const float4 v = gemm::load_float4(&As_T[stage][k][swizzle<BK>(k, thread_row * TM + i)]);
      a_frag[buf][i] = v.x, a_frag[buf][i + 1] = v.y, a_frag[buf][i + 2] = v.z;
      a_frag[buf][i + 3] = v.w;
    }
#pragma unroll
    for (int j = 0; j < TN; j += 4) {  // B row: TN/4 float4 loads.
      const float4 v = gemm::load_float4(&Bs[stage][k][thread_col * 4 + j * (BN / TN)]);
      b_frag[buf][j] = v.x, b_frag[buf][j + 1] = v.y, b_frag[buf][j + 2] = v.z;
      b_frag[buf][j + 3] = v.w;
    }
  };
  // The other stage was last read in the previous k-tile, before the barrier that ended it, so
  // it can be overwritten now; the barrier publishes it for the next k-tile.
  const auto publish_next = [&](bool has_next, int stage) {
    if (has_next) store_tile(stage ^ 1);
    __syncthreads();
  };

  float acc[TM][TN] = {};
  load_tile(k_begin);
  store_tile(0);
  __syncthreads();
  if (FRAG_BUFS == 2) load_frags(0, 0, 0);
  for (int k0 = k_begin, stage = 0; k0 < k_end; k0 += BK, stage ^= 1) {
    const bool has_next = k0 + BK < k_end;
    if (has_next) load_tile(k0 + BK);  // issued now, waited for only in store_tile

#pragma unroll
    for (int k = 0; k < BK; ++k) {
      if (FRAG_BUFS == 1) load_frags(0, stage, k);
      // EARLY_BARRIER: the barrier comes before the last step's FMAs, whose fragments are already
      // in registers, so a warp leaving it has FMAs to issue at once.
      if (EARLY_BARRIER && k == BK - 1) publish_next(has_next, stage);
      if (FRAG_BUFS == 2 && k + 1 < BK) load_frags((k + 1) % 2, stage, k + 1);
      if (FRAG_BUFS == 2 && k + 1 == BK && has_next && EARLY_BARRIER)
        load_frags((k + 1) % 2, stage ^ 1, 0);
      const int buf = FRAG_BUFS == 2 ? k % 2 : 0;
      // j outer, i inner: the order changes ptxas's register allocation and schedule, not the
      // arithmetic. It is the same in 03-07, so that no diff between chapters carries it.
#pragma unroll
      for (int j = 0; j < TN; ++j)
#pragma unroll
        for (int i = 0; i < TM; ++i)
          acc[i][j] += a_frag[buf][i] * b_frag[buf][j];
    }
    if (!EARLY_BARRIER) {
      publish_next(has_next, stage);
      if (FRAG_BUFS == 2 && has_next) load_frags(0, stage ^ 1, 0);
    }
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = block_row + thread_row * TM + i;
#pragma unroll
    for (int j = 0; j < TN; j += 4) {
      const int col = block_col + thread_col * 4 + j * (BN / TN);
      if (row < M && col < N) {
        const float4 v{acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]};
        if (gridDim.z == 1)
          gemm::store4<WIDE>(&C[row * N + col], v, alpha, beta, N - col);
        else
          gemm::add4(&C[row * N + col], v, alpha, N - col);
      }
    }
  }
}

template <int BM, int BN, int BK, int TM, int TN, bool EARLY_BARRIER = true, int FRAG_BUFS = 1,
          bool SPLIT_K = true>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const float* A, const float* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  gemm::SplitK split;
  if (cudaError_t err = gemm::split_k(M, N, K, BM, BN, BK, SPLIT_K ? blocks_per_sm(TM, TN) : 0,
                                      beta, C, stream, split, info))
    return err;
  const dim3 block((BM / TM) * (BN / TN));
  auto kernel = gemm_kernel<BM, BN, BK, TM, TN, EARLY_BARRIER, FRAG_BUFS, false>;
  if (gemm::wide_access(4, K, N, A, B, C, info))
    kernel = gemm_kernel<BM, BN, BK, TM, TN, EARLY_BARRIER, FRAG_BUFS, true>;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM), split.splits);
    kernel<<<grid, block, 0, stream>>>(rows, N, K, split.k_chunk, alpha, A + std::size_t(row0) * K,
                                       B, beta, C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// BK 8: with double buffering the fastest on the H200; at BK 16 it is slower than 06. The 128x256
// tile is faster at 4096 but much slower at 3000 (README.md measures each variant).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<128, 128, 8, 8, 8>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch07
