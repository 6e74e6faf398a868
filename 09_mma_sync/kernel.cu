// 09_mma_sync: the tensor cores without WMMA. PTX mma.sync (m16n8k16 for FP16, m16n8k8 for TF32)
// with fragments whose lane layout the program owns: ldmatrix loads them from shared rows that
// are XOR-swizzled instead of padded, and the epilogue writes C straight from the accumulators.
// 08's pipeline stays: tile k+1 in registers while tile k is computed,
// two shared stages, one barrier per k-tile, split K for a C of few tiles.
// What should move: warp instructions per MMA down, shared-load bank conflicts to zero (ncu:
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld), the tensor pipe busier
// (sm__pipe_tensor_op_hmma_cycles_active), toward the mma.sync ceiling of bench/mma_peak.cu.
#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

#include <cuda_fp16.h>

#include <type_traits>

namespace ch09 {

// Blocks per SM that __launch_bounds__ asks for: two blocks of 4 warps keep up to 255 registers
// per thread (a 64x64 warp tile holds 128 accumulators per lane); 8 warps allow one.
constexpr int blocks_per_sm(int warps) {
  return warps <= 4 ? 2 : 1;
}

// Four 8x8 matrices of 16-bit elements (8 rows of 16 bytes each), one row address per lane:
// lanes 0-7 give matrix 0's rows, 8-15 matrix 1's, ... Lane l receives row l / 4, elements
// 2 (l % 4) and 2 (l % 4) + 1 of each matrix (TRANS: of its transpose).
template <bool TRANS>
__device__ __forceinline__ void ldmatrix_x4(unsigned (&x)[4], unsigned smem) {
  if constexpr (TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(smem)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x[0]), "=r"(x[1]), "=r"(x[2]), "=r"(x[3])
                 : "r"(smem)
                 : "memory");
}
__device__ __forceinline__ unsigned lds32(unsigned smem) {
  unsigned r;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r) : "r"(smem) : "memory");
  return r;
}

// d += a * b for one 16x8 tile of C: a is 16 x MMA_K, b MMA_K x 8, in the lane layouts of the PTX
// ISA (lane l = 4g + t holds a's rows g and g + 8, b's column g, d's rows g and g + 8).
template <class T>
__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  if constexpr (std::is_same_v<T, __half>)
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Shared memory in 16-byte chunks, rows unpadded; the chunk a value lands in is XOR-ed with bits of
// its row so that every access of a warp spreads over all 32 banks (8 chunks of 128 bytes):
// - A rows hold RC = BK * sizeof(T) / 16 chunks; ldmatrix reads one chunk from each of 8
//   consecutive rows, 128 / (16 RC) rows to a 128-byte line: XOR with (row / (8 / RC)) % RC.
// - B: FP16 ldmatrix.trans reads one chunk of 8 consecutive rows: XOR with row % 8. TF32 lane
//   4g + t reads row t (and t + 4), column g: XOR with 2 (row % 4), g / 4 picks 1 of 2 chunks.
// SWIZZLE false: the plain layout, to measure what the XOR saves.
template <class T, int BK, bool SWIZZLE>
__device__ __forceinline__ int a_chunk(int row, int chunk) {
  constexpr int RC = BK * sizeof(T) / 16;
  return SWIZZLE ? chunk ^ (row / (8 / RC)) % RC : chunk;
}
template <class T, bool SWIZZLE>
__device__ __forceinline__ int b_chunk(int row, int chunk) {
  return !SWIZZLE ? chunk : sizeof(T) == 2 ? chunk ^ row % 8 : chunk ^ row % 4 * 2;
}

// A block of (BM/WM) x (BN/WN) warps covers a BM x BN block of C; warp (warp_row, warp_col) owns
// the WM x WN warp tile at rows warp_row*WM, columns warp_col*WN, as (WM/16) x (WN/8) mma tiles.
// WIDE, chosen by the launcher: 16-byte global loads and stores; otherwise the same kernel moves
// one element per access, which any K, N and element-aligned A, B, C allow.
// EARLY_BARRIER: each k-tile's barrier comes before its last step's MMAs (else after them).
// FRAG_BUFS 2: fragments double-buffered in registers, step k+1's read while step k's MMAs run.
// Split K (gridDim.z > 1): block z takes k in [z * k_chunk, (z + 1) * k_chunk) and adds alpha *
// its sum into C, which the launcher has already scaled by beta.
template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER, int FRAG_BUFS,
          bool SWIZZLE, bool WIDE>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32, blocks_per_sm((BM / WM) * (BN / WN)))
    gemm_kernel(int M, int N, int K, int k_chunk, float alpha, const T* A, const T* B, float beta,
                float* C) {
  constexpr int NUM_THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int V = 16 / sizeof(T);  // elements per 16 bytes: 4 floats or 8 halves
  constexpr int A_VECS = BM * BK / V, B_VECS = BK * BN / V;  // 16-byte chunks per tile
  constexpr int A_PASSES = gemm::ceil_div(A_VECS, NUM_THREADS);
  constexpr int B_PASSES = gemm::ceil_div(B_VECS, NUM_THREADS);
  // The mma shape: FP16 multiplies 16x8x16 per instruction, TF32 16x8x8.
  constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16, FM = WM / 16, FN = WN / 8;
  static_assert(BK % V == 0 && BN % V == 0, "16-byte accesses");
  static_assert(BK % MMA_K == 0 && WM % 16 == 0 && WN % 16 == 0, "whole fragments");
  static_assert(128 % (BK * sizeof(T)) == 0 && BN * sizeof(T) % 128 == 0, "whole swizzle periods");
  static_assert(FRAG_BUFS == 1 || BK / MMA_K % 2 == 0, "double buffers alternate within a k-tile");
  __shared__ __align__(128) T As[2 * BM * BK];  // [2][BM][BK], rows unpadded, chunks swizzled
  __shared__ __align__(128) T Bs[2 * BK * BN];  // [2][BK][BN], the same
  const unsigned As_s = static_cast<unsigned>(__cvta_generic_to_shared(As));
  const unsigned Bs_s = static_cast<unsigned>(__cvta_generic_to_shared(Bs));
  // The index in As or Bs of the chunk holding element (row, col) of a stage.
  const auto a_at = [](int stage, int row, int col) {
    return (stage * BM + row) * BK + a_chunk<T, BK, SWIZZLE>(row, col / V) * V;
  };
  const auto b_at = [](int stage, int row, int col) {
    return (stage * BK + row) * BN + b_chunk<T, SWIZZLE>(row, col / V) * V;
  };

  const int tid = threadIdx.x;
  const int warp_id = tid / 32, lane_id = tid % 32;
  const int g = lane_id / 4, t = lane_id % 4, odd = t % 2;  // lane 4g + t of the mma layouts
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
      *reinterpret_cast<gemm::Vec16<T>*>(&As[a_at(stage, r, c)]) = gemm::round_tf32(a_next[pass]);
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / V), c = i % (BN / V) * V;
      *reinterpret_cast<gemm::Vec16<T>*>(&Bs[b_at(stage, r, c)]) = gemm::round_tf32(b_next[pass]);
    }
  };

  // Fragments of A and B for one step k; with FRAG_BUFS 2, two sets: step k+1's are read from
  // shared memory while step k's MMAs run. a_frag[i]: rows i*16 .. +15 of the warp tile, whose
  // 16x16 bytes one ldmatrix x4 gives (lanes 0-15 point at rows 0-15 of one chunk, 16-31 of the
  // next); b_frag[j]: columns j*8 .. +7, two per FP16 ldmatrix.trans, TF32 word by word. The XOR
  // depends on the lane, step and column tile only: each lane's offsets are computed once.
  constexpr int B_LOADS = std::is_same_v<T, __half> ? FN / 2 : FN;
  unsigned a_lane[BK / MMA_K], b_lane[B_LOADS];
#pragma unroll
  for (int s = 0; s < BK / MMA_K; ++s)
    a_lane[s] = a_at(0, warp_row * WM + lane_id % 16, s * MMA_K + lane_id / 16 * V) * sizeof(T);
#pragma unroll
  for (int j = 0; j < B_LOADS; ++j)
    if constexpr (std::is_same_v<T, __half>)
      b_lane[j] = b_at(0, lane_id % 16, warp_col * WN + j * 16 + lane_id / 16 * 8) * sizeof(T);
    else  // row t, column g: word g % 4 of its chunk
      b_lane[j] = (b_at(0, t, warp_col * WN + j * 8 + g) + g % 4) * sizeof(T);
  unsigned a_frag[FRAG_BUFS][FM][4], b_frag[FRAG_BUFS][FN][2];
  const auto load_frags = [&](int buf, int stage, int k) {
    const unsigned as = As_s + stage * unsigned(BM * BK * sizeof(T));
    const unsigned bs = Bs_s + stage * unsigned(BK * BN * sizeof(T));
#pragma unroll
    for (int i = 0; i < FM; ++i)  // 16 rows of A, MMA_K wide
      ldmatrix_x4<false>(a_frag[buf][i], as + a_lane[k / MMA_K] + i * 16 * BK * sizeof(T));
#pragma unroll
    for (int j = 0; j < B_LOADS; ++j) {  // MMA_K rows of B, 16 wide (FP16) or 8 (TF32)
      if constexpr (std::is_same_v<T, __half>) {
        unsigned r[4];
        ldmatrix_x4<true>(r, bs + b_lane[j] + k * BN * sizeof(T));
        b_frag[buf][2 * j][0] = r[0], b_frag[buf][2 * j][1] = r[1];
        b_frag[buf][2 * j + 1][0] = r[2], b_frag[buf][2 * j + 1][1] = r[3];
      } else {
        b_frag[buf][j][0] = lds32(bs + b_lane[j] + k * BN * sizeof(T));
        b_frag[buf][j][1] = lds32(bs + b_lane[j] + (k + 4) * BN * sizeof(T));
      }
    }
  };
  // The other stage was last read in the previous k-tile, before the barrier that ended it, so
  // it can be overwritten now; the barrier publishes it for the next k-tile.
  const auto publish_next = [&](bool has_next, int stage) {
    if (has_next) store_tile(stage ^ 1);
    __syncthreads();
  };

  float acc[FM][FN][4] = {};
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
          mma<T>(acc[i][j], a_frag[buf][i], b_frag[buf][j]);
    }
    if (!EARLY_BARRIER) {
      publish_next(has_next, stage);
      if (FRAG_BUFS == 2 && has_next) load_frags(0, stage ^ 1, 0);
    }
  }

  // Lane 4g + t holds columns 2t, 2t+1 of rows g (acc[..][0..1]) and g + 8 ([2..3]) of each 16x8
  // tile. Neighbouring lanes swap a pair, so that an even t holds columns 2t .. 2t+3 of row g and
  // an odd t the same four columns of row g + 8: one 16-byte store each, no scratch.
#pragma unroll
  for (int i = 0; i < FM; ++i) {
    const int row = block_row + warp_row * WM + i * 16 + g + (odd ? 8 : 0);
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      const float* d = acc[i][j];
      const float s0 = __shfl_xor_sync(0xffffffffu, odd ? d[0] : d[2], 1);
      const float s1 = __shfl_xor_sync(0xffffffffu, odd ? d[1] : d[3], 1);
      const float4 v = odd ? float4{s0, s1, d[2], d[3]} : float4{d[0], d[1], s0, s1};
      const int col = block_col + warp_col * WN + j * 8 + (t - t % 2) * 2;
      if (row < M && col < N) {
        if (gridDim.z == 1)
          gemm::store4<WIDE>(&C[row * N + col], v, alpha, beta, N - col);
        else
          gemm::add4(&C[row * N + col], v, alpha, N - col);
      }
    }
  }
}

template <class T, int BM, int BN, int BK, int WM, int WN, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool SPLIT_K = true, bool SWIZZLE = true>
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
  auto kernel = gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, false>;
  if (gemm::wide_access(16 / sizeof(T), K, N, A, B, C, info))
    kernel = gemm_kernel<T, BM, BN, BK, WM, WN, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, true>;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM), split.splits);
    kernel<<<grid, block, 0, stream>>>(rows, N, K, split.k_chunk, alpha, A + std::size_t(row0) * K,
                                       B, beta, C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TF32 tensor cores for float A and B; 128x128 blocks of 4 warps, 64x64 per warp, the barrier
// after each k-tile's last step (EARLY_BARRIER false), one set of fragments (FRAG_BUFS 1).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<float, 128, 128, 16, 64, 64>(M, N, K, alpha, A, B, beta, C, stream);
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<__half, 128, 128, 32, 64, 64>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch09
