// 08_wmma_tensorcore: the products move from the CUDA cores to the tensor cores. A warp, not a
// thread, now owns a piece of C: through nvcuda::wmma it multiplies 16x16 fragments in one
// instruction stream (m16n16k8 in TF32 for float inputs, m16n16k16 for FP16 inputs) into FP32
// accumulator fragments. 07's pipeline stays: tile k+1 in registers while tile k is computed,
// two shared stages, one barrier per k-tile, split K for a C of few tiles.
// What should move: time, by up to the ratio of tensor-core to FP32 throughput per SM and clock
// (Hopper: 8x in TF32, 16x with FP16 inputs), as far as WMMA and shared memory can feed them.
#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

#include <cuda_fp16.h>
#include <mma.h>

#include <type_traits>

namespace ch08 {

namespace wmma = nvcuda::wmma;

// Blocks per SM that __launch_bounds__ asks for: two blocks of 4 warps keep up to 255 registers
// per thread (a 64x64 warp tile holds 128 accumulators per lane); 8 warps allow one.
constexpr int blocks_per_sm(int warps) {
  return warps <= 4 ? 2 : 1;
}

// A fragment from shared memory. WMMA's C++ load of TF32 uses generic addresses; PTX_LOAD writes
// the same load with the .shared state space and a 32-bit address (README.md compares the SASS).
template <bool PTX_LOAD, class Frag, class T>
__device__ __forceinline__ void load_fragment(Frag& f, const T* p, int ld) {
  unsigned* x = reinterpret_cast<unsigned*>(f.x);
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
  constexpr bool a = std::is_same_v<
      Frag, wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>>;
  if constexpr (!PTX_LOAD || !std::is_same_v<T, float>)
    wmma::load_matrix_sync(f, p, ld);
  else if constexpr (a)
    asm volatile("wmma.load.a.sync.aligned.row.m16n16k8.shared.tf32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(s), "r"(ld));
  else
    asm volatile("wmma.load.b.sync.aligned.row.m16n16k8.shared.tf32 {%0,%1,%2,%3}, [%4], %5;"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(s), "r"(ld));
}

// A block of (BM/WM) x (BN/WN) warps covers a BM x BN block of C; warp (warp_row, warp_col) owns
// the WM x WN warp tile at rows warp_row*WM, columns warp_col*WN, as (WM/16) x (WN/16)
// accumulator fragments.
// WIDE, chosen by the launcher: 16-byte global loads and stores; otherwise the same kernel moves
// one element per access, which any K, N and element-aligned A, B, C allow.
// EARLY_BARRIER: each k-tile's barrier comes before its last step's MMAs (else after them).
// FRAG_BUFS 2: fragments double-buffered in registers, step k+1's read while step k's MMAs run.
// Split K (gridDim.z > 1): block z takes k in [z * k_chunk, (z + 1) * k_chunk) and adds alpha *
// its sum into C, which the launcher has already scaled by beta.
template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER, int FRAG_BUFS,
          bool PTX_LOAD, bool WIDE>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, blocks_per_sm((BM / WM) * (BN / WN)))
    gemm_kernel(int M, int N, int K, int k_chunk, float alpha, const T* A, const T* B, float beta,
                float* C) {
  constexpr int NUM_THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int V = 16 / sizeof(T);  // elements per 16 bytes: 4 floats or 8 halves
  constexpr int A_VECS = BM * BK / V, B_VECS = BK * BN / V;  // 16-byte chunks per tile
  constexpr int A_PASSES = gemm::ceil_div(A_VECS, NUM_THREADS);
  constexpr int B_PASSES = gemm::ceil_div(B_VECS, NUM_THREADS);
  // The WMMA shape: FP16 multiplies 16x16x16 per instruction, TF32 16x16x8.
  constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16, FM = WM / 16, FN = WN / 16;
  static_assert(BK % V == 0 && BN % V == 0, "16-byte accesses");
  static_assert(BK % MMA_K == 0 && WM % 16 == 0 && WN % 16 == 0, "whole fragments");
  // Padded rows: a fragment load reads rows that now start in different banks (TF32 reads B by
  // columns, 8 words of padding; FP16 16 bytes). Both keep every fragment 32-byte aligned.
  constexpr int LDA = BK + 16 / sizeof(T), LDB = BN + 8;
  __shared__ __align__(32) T As[2][BM][LDA];  // row-major now: fragments are read along k
  __shared__ __align__(32) T Bs[2][BK][LDB];

  const int tid = threadIdx.x;
  const int warp_id = tid / 32, lane_id = tid % 32;
  const int warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const int k_begin = blockIdx.z * k_chunk, k_end = min(K, k_begin + k_chunk);

  // The next tile, in flight in registers while the current one is computed.
  gemm::Vec16<T> a_next[A_PASSES], b_next[B_PASSES];
  // Consecutive threads load consecutive 16-byte chunks along a row: coalesced 16-byte loads
  // (element by element, each load puts the lanes 16 bytes apart). A chunk that starts past the
  // matrix is zeros; one that crosses its edge (element by element) is cut.
  const auto load_tile = [&](int k0) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / V), c = i % (BK / V) * V;
      const int row = block_row + r, k = k0 + c;
      a_next[pass] =
          row < M && k < k_end ? gemm::load16<WIDE>(&A[row * K + k], k_end - k) : gemm::Vec16<T>{};
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / V), c = i % (BN / V) * V;
      const int k = k0 + r, col = block_col + c;
      b_next[pass] =
          k < k_end && col < N ? gemm::load16<WIDE>(&B[k * N + col], N - col) : gemm::Vec16<T>{};
    }
  };
  const auto store_tile = [&](int stage) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / V), c = i % (BK / V) * V;
      // TF32: rounded once, on the way into shared memory, for every warp that reads it.
      *reinterpret_cast<gemm::Vec16<T>*>(&As[stage][r][c]) = gemm::round_tf32(a_next[pass]);
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / V), c = i % (BN / V) * V;
      *reinterpret_cast<gemm::Vec16<T>*>(&Bs[stage][r][c]) = gemm::round_tf32(b_next[pass]);
    }
  };

  // Fragments of A and B for one step k; with FRAG_BUFS 2, two sets: step k+1's are read from
  // shared memory while step k's MMAs run.
  using Prec = std::conditional_t<std::is_same_v<T, float>, wmma::precision::tf32, __half>;
  wmma::fragment<wmma::matrix_a, 16, 16, MMA_K, Prec, wmma::row_major> a_frag[FRAG_BUFS][FM];
  wmma::fragment<wmma::matrix_b, 16, 16, MMA_K, Prec, wmma::row_major> b_frag[FRAG_BUFS][FN];
  const auto load_frags = [&](int buf, int stage, int k) {
#pragma unroll
    for (int i = 0; i < FM; ++i)  // 16 rows of A, MMA_K wide
      load_fragment<PTX_LOAD>(a_frag[buf][i], &As[stage][warp_row * WM + i * 16][k], LDA);
#pragma unroll
    for (int j = 0; j < FN; ++j)  // MMA_K rows of B, 16 wide
      load_fragment<PTX_LOAD>(b_frag[buf][j], &Bs[stage][k][warp_col * WN + j * 16], LDB);
  };
  // The other stage was last read in the previous k-tile, before the barrier that ended it, so
  // it can be overwritten now; the barrier publishes it for the next k-tile.
  const auto publish_next = [&](bool has_next, int stage) {
    if (has_next) store_tile(stage ^ 1);
    __syncthreads();
  };

  wmma::fragment<wmma::accumulator, 16, 16, MMA_K, float> acc[FM][FN] = {};
  load_tile(k_begin);
  store_tile(0);
  __syncthreads();
  if (FRAG_BUFS == 2) load_frags(0, 0, 0);
  for (int k0 = k_begin, stage = 0; k0 < k_end; k0 += BK, stage ^= 1) {
    const bool has_next = k0 + BK < k_end;
    if (has_next) load_tile(k0 + BK);  // issued now, waited for only in store_tile

#pragma unroll
    for (int k = 0; k < BK; k += MMA_K) {
      if (FRAG_BUFS == 1) load_frags(0, stage, k);
      // EARLY_BARRIER: the barrier comes before the last step's MMAs, whose fragments are already
      // in registers, so a warp leaving it has MMAs to issue at once.
      if (EARLY_BARRIER && k == BK - MMA_K) publish_next(has_next, stage);
      if (FRAG_BUFS == 2 && k + MMA_K < BK) load_frags((k / MMA_K + 1) % 2, stage, k + MMA_K);
      if (FRAG_BUFS == 2 && k + MMA_K == BK && has_next && EARLY_BARRIER)
        load_frags((k / MMA_K + 1) % 2, stage ^ 1, 0);
      const int buf = FRAG_BUFS == 2 ? k / MMA_K % 2 : 0;
      // j outer, i inner: the order changes ptxas's register allocation and schedule, not the
      // arithmetic. It is the same in 03-07, so that no diff between chapters carries it.
#pragma unroll
      for (int j = 0; j < FN; ++j)
#pragma unroll
        for (int i = 0; i < FM; ++i)
          wmma::mma_sync(acc[i][j], a_frag[buf][i], b_frag[buf][j], acc[i][j]);
    }
    if (!EARLY_BARRIER) {
      publish_next(has_next, stage);
      if (FRAG_BUFS == 2 && has_next) load_frags(0, stage ^ 1, 0);
    }
  }

  // A fragment's element-to-lane map is opaque: each warp stores a fragment to its own 16x16
  // scratch in shared memory, then lane l writes row l / 2, columns (l % 2) * 8 .. +7 of it.
  __syncthreads();  // every warp is done with the tiles; their memory becomes the scratch
  float* const scratch = reinterpret_cast<float*>(&As[0][0][0]) + warp_id * 256;
#pragma unroll
  for (int i = 0; i < FM; ++i) {
    const int row = block_row + warp_row * WM + i * 16 + lane_id / 2;
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
#pragma unroll
      for (int h = 0; h < 8; h += 4) {
        const int c = lane_id % 2 * 8 + h, col = block_col + warp_col * WN + j * 16 + c;
        if (row < M && col < N) {
          const float4 v = gemm::load_float4(&scratch[lane_id / 2 * 16 + c]);
          if (gridDim.z == 1)
            gemm::store4<WIDE>(&C[row * N + col], v, alpha, beta, N - col);
          else
            gemm::add4(&C[row * N + col], v, alpha, N - col);
        }
      }
      __syncwarp();  // the scratch is overwritten by the next fragment
    }
  }
}

template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool SPLIT_K = true, bool PTX_LOAD = true>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B, float beta,
                        float* C, cudaStream_t stream, gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  gemm::SplitK split;
  if (cudaError_t err =
          gemm::split_k(M, N, K, BM, BN, BK, SPLIT_K ? blocks_per_sm((BM / WM) * (BN / WN)) : 0,
                        beta, C, stream, split, info))
    return err;
  const dim3 block((BM / WM) * (BN / WN) * 32);
  auto kernel = gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, PTX_LOAD, false>;
  if (gemm::wide_access(16 / sizeof(T), K, N, A, B, C, info))
    kernel = gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, PTX_LOAD, true>;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM), split.splits);
    kernel<<<grid, block, 0, stream>>>(rows, N, K, split.k_chunk, alpha, A + std::size_t(row0) * K,
                                       B, beta, C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TF32 tensor cores for float A and B; 128x128 blocks of 4 warps, 64x64 per warp, the barrier
// after each k-tile's last step (EARLY_BARRIER false): the fastest in main.cu on the H200
// (README.md).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<float, 128, 128, 16, 64, 64>(M, N, K, alpha, A, B, beta, C, stream);
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<__half, 128, 128, 32, 64, 64>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch08
