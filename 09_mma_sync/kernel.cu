// 09_mma_sync: the tensor cores without WMMA. PTX mma.sync (m16n8k16 for FP16, m16n8k8 for TF32)
// with fragments whose lane layout the program owns; ldmatrix loads them from shared memory that
// is XOR-swizzled instead of padded; cp.async copies tiles global -> shared in a ring of STAGES
// without passing through registers; the fragments of step k+1 are loaded while step k's MMAs
// run; the epilogue writes straight from the accumulators.
// What should move: tensor-pipe utilization (ncu: sm__pipe_tensor_op_hmma_cycles_active) up,
// instructions per MMA down, shared-load bank conflicts at zero, toward the mma.sync ceiling
// (bench/mma_peak.cu).
#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

#include <cuda_fp16.h>

#include <type_traits>

namespace ch09 {

// 16-byte asynchronous copy global -> shared; with valid false nothing is read and the 16 bytes
// are zero-filled: the tiles' edges.
__device__ __forceinline__ void cp_async_16(unsigned smem, const void* gmem, bool valid) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem), "l"(gmem),
               "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;");
}
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(PENDING));
}

// Four 8x8 matrices of 16-bit elements (8 rows of 16 bytes each), one row address per lane:
// lanes 0-7 give matrix 0's rows, 8-15 matrix 1's, ... Lane l receives row l / 4, elements
// 2 (l % 4) and 2 (l % 4) + 1 of each matrix (TRANS: of its transpose).
template <bool TRANS>
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned smem) {
  if constexpr (TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem)
                 : "memory");
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
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
//   consecutive rows, which 128 / (16 RC) rows at a time share a 128-byte line: XOR-ing the
//   chunk with (row / (8 / RC)) % RC puts the 8 in 8 different places.
// - B rows: FP16 goes through ldmatrix.trans, again one chunk of 8 consecutive rows: XOR with
//   row % 8. TF32 fragments are read one word per lane, lane 4g + t reading row t (and t + 4),
//   column g: XOR with 2 (row % 4) separates the 4 rows, g / 4 picks between 2 chunks.
// SWIZZLE false: the plain layout, to measure what the XOR saves.
template <class T, int BK, bool SWIZZLE>
__device__ __forceinline__ int a_chunk(int row, int chunk) {
  constexpr int RC = BK * sizeof(T) / 16;
  return SWIZZLE ? chunk ^ (row / (8 / RC)) % RC : chunk;
}
template <class T, bool SWIZZLE>
__device__ __forceinline__ int b_chunk(int row, int chunk) {
  if (!SWIZZLE) return chunk;
  return sizeof(T) == 2 ? chunk ^ row % 8 : chunk ^ row % 4 * 2;
}

template <class T, int BM, int BN, int BK, int STAGES>
__host__ __device__ constexpr std::size_t smem_bytes() {
  return std::size_t(STAGES) * (BM * BK + BK * BN) * sizeof(T);
}

// A block of (BM/WM) x (BN/WN) warps covers a BM x BN block of C; warp (warp_row, warp_col) owns
// the WM x WN warp tile at rows warp_row*WM, columns warp_col*WN, as (WM/16) x (WN/8) mma tiles.
// WIDE, chosen by the launcher: cp.async copies of 16 bytes and 16-byte stores of C; otherwise
// the same kernel loads element by element through registers into the same swizzled chunks.
// FRAG_BUFS 2: fragments double-buffered in registers; 1: each step loads its own.
// Split K (gridDim.z > 1): as in 07 and 08.
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, int FRAG_BUFS, bool SWIZZLE,
          bool WIDE>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_kernel(int M, int N, int K, int k_chunk, float alpha, const T* A, const T* B, float beta,
                float* C) {
  constexpr int NUM_THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int V = 16 / sizeof(T);  // elements per 16 bytes: 4 floats or 8 halves
  constexpr int A_VECS = BM * BK / V, B_VECS = BK * BN / V;  // 16-byte chunks per tile
  constexpr int A_PASSES = gemm::ceil_div(A_VECS, NUM_THREADS);
  constexpr int B_PASSES = gemm::ceil_div(B_VECS, NUM_THREADS);
  // The mma shape: FP16 multiplies 16x8x16 per instruction, TF32 16x8x8; in bytes both are a
  // 16x16-byte A fragment, 2 chunks of each of 16 rows.
  constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16, FM = WM / 16, FN = WN / 8;
  constexpr int STEPS = BK / MMA_K;
  static_assert(BK % V == 0 && BN % V == 0, "16-byte accesses");
  static_assert(BK % MMA_K == 0 && WM % 16 == 0 && WN % 16 == 0, "whole fragments");
  static_assert(BK * sizeof(T) >= 32 && BK * sizeof(T) <= 128 && BN * sizeof(T) >= 128,
                "the swizzles need 2 to 8 chunks per A row and 8 or more per B row");
  static_assert(FRAG_BUFS == 1 || STEPS % 2 == 0, "double buffers alternate within a k-tile");
  extern __shared__ __align__(128) unsigned char smem[];
  T* const As = reinterpret_cast<T*>(smem);  // [STAGES][BM][BK], chunks swizzled
  T* const Bs = As + STAGES * BM * BK;       // [STAGES][BK][BN], chunks swizzled
  const unsigned As_s = static_cast<unsigned>(__cvta_generic_to_shared(As));
  const unsigned Bs_s = static_cast<unsigned>(__cvta_generic_to_shared(Bs));
  // Byte offsets in shared memory of the chunk holding element (row, col) of a stage.
  const auto a_at = [](int stage, int row, int col) {
    return unsigned(((stage * BM + row) * BK + a_chunk<T, BK, SWIZZLE>(row, col / V) * V) *
                    sizeof(T));
  };
  const auto b_at = [](int stage, int row, int col) {
    return unsigned(((stage * BK + row) * BN + b_chunk<T, SWIZZLE>(row, col / V) * V) * sizeof(T));
  };

  const int tid = threadIdx.x;
  const int warp_id = tid / 32, lane_id = tid % 32;
  const int warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);
  const int block_row = blockIdx.y * BM;
  const int block_col = blockIdx.x * BN;
  const int k_begin = blockIdx.z * k_chunk, k_end = min(K, k_begin + k_chunk);

  // Tile k0 into stage `stage`: consecutive threads copy consecutive 16-byte chunks along a row.
  // WIDE: cp.async, nothing through registers, zero-filled outside A or B. Otherwise each chunk
  // is loaded element by element (cut at the matrix's edge) and stored into the same place.
  const auto load_tile = [&](int k0, int stage) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / V), c = i % (BK / V) * V;
      const int row = block_row + r, k = k0 + c;
      const bool valid = row < M && k < k_end;
      if constexpr (WIDE)
        cp_async_16(As_s + a_at(stage, r, c), valid ? &A[row * K + k] : A, valid);
      else
        *reinterpret_cast<gemm::Vec16<T>*>(smem + a_at(stage, r, c)) =
            valid ? gemm::load16<false>(&A[row * K + k], k_end - k) : gemm::Vec16<T>{};
    }
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (B_VECS % NUM_THREADS != 0 && i >= B_VECS) break;
      const int r = i / (BN / V), c = i % (BN / V) * V;
      const int k = k0 + r, col = block_col + c;
      const bool valid = k < k_end && col < N;
      if constexpr (WIDE)
        cp_async_16(Bs_s + b_at(stage, r, c), valid ? &B[k * N + col] : B, valid);
      else
        *reinterpret_cast<gemm::Vec16<T>*>(smem + STAGES * BM * BK * sizeof(T) +
                                           b_at(stage, r, c)) =
            valid ? gemm::load16<false>(&B[k * N + col], N - col) : gemm::Vec16<T>{};
    }
  };

  // Blocks whose BM x BN tile lies inside C copy whole k-tiles without bounds checks: one start
  // per operand and thread, the passes at fixed strides (whole swizzle periods of rows apart, so
  // the shared offsets differ by constants), the k-tile added at each copy.
  constexpr int A_ROWS = NUM_THREADS / (BK / V), B_ROWS = NUM_THREADS / (BN / V);
  constexpr bool FULL_COPIES = A_VECS % NUM_THREADS == 0 && B_VECS % NUM_THREADS == 0 &&
                               A_ROWS % 8 == 0 && B_ROWS % (sizeof(T) == 2 ? 8 : 4) == 0;
  const bool interior = WIDE && block_row + BM <= M && block_col + BN <= N;
  const T* const a_src = A + (block_row + tid / (BK / V)) * K + tid % (BK / V) * V;
  const T* const b_src = B + tid / (BN / V) * N + block_col + tid % (BN / V) * V;
  const unsigned a_dst = a_at(0, tid / (BK / V), tid % (BK / V) * V);
  const unsigned b_dst = b_at(0, tid / (BN / V), tid % (BN / V) * V);
  const auto load_full_tile = [&](int k0, int stage) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass)
      cp_async_16(
          As_s + stage * unsigned(BM * BK * sizeof(T)) + a_dst + pass * A_ROWS * BK * sizeof(T),
          a_src + pass * A_ROWS * K + k0, true);
#pragma unroll
    for (int pass = 0; pass < B_PASSES; ++pass)
      cp_async_16(
          Bs_s + stage * unsigned(BK * BN * sizeof(T)) + b_dst + pass * B_ROWS * BN * sizeof(T),
          b_src + (pass * B_ROWS + k0) * N, true);
  };
  const auto copy_tile = [&](int k0, int stage) {
    if (FULL_COPIES && interior && k0 + BK <= k_end)
      load_full_tile(k0, stage);
    else
      load_tile(k0, stage);
  };

  // Fragments of step s (k = s * MMA_K .. + MMA_K - 1 of the tile): a_frag[i] for rows i*16 .. +15
  // of the warp tile, b_frag[j] for columns j*8 .. +7. ldmatrix x4 gives A's 16x16 bytes at once:
  // lanes 0-15 point at rows 0-15 of the first chunk, lanes 16-31 at the second. For FP16 B, one
  // ldmatrix.trans gives two 8-column tiles (lanes 16-31 the second); TF32 B is read word by word.
  // Every address is a per-lane offset computed here, once, plus a per-stage base and a constant:
  // the XOR depends only on the lane, the step and the column tile, not on i, the stage or k0.
  constexpr int B_LOADS = std::is_same_v<T, __half> ? FN / 2 : FN;
  unsigned a_lane[STEPS], b_lane[B_LOADS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s)
    a_lane[s] = a_at(0, warp_row * WM + lane_id % 16, s * MMA_K + lane_id / 16 * V);
#pragma unroll
  for (int j = 0; j < B_LOADS; ++j) {
    if constexpr (std::is_same_v<T, __half>) {
      b_lane[j] = b_at(0, lane_id % 16, warp_col * WN + j * 16 + lane_id / 16 * 8);
    } else {
      const int col = warp_col * WN + j * 8 + lane_id / 4;
      b_lane[j] = b_at(0, lane_id % 4, col) + col % 4 * 4;
    }
  }
  unsigned a_frag[FRAG_BUFS][FM][4], b_frag[FRAG_BUFS][FN][2];
  const auto load_frags = [&](int buf, int stage, int s) {
    const unsigned as = As_s + stage * unsigned(BM * BK * sizeof(T));
    const unsigned bs = Bs_s + stage * unsigned(BK * BN * sizeof(T));
#pragma unroll
    for (int i = 0; i < FM; ++i)
      ldmatrix_x4<false>(a_frag[buf][i], as + a_lane[s] + i * 16 * BK * sizeof(T));
#pragma unroll
    for (int j = 0; j < B_LOADS; ++j) {
      if constexpr (std::is_same_v<T, __half>) {
        unsigned r[4];
        ldmatrix_x4<true>(r, bs + b_lane[j] + s * 16 * BN * sizeof(T));
        b_frag[buf][2 * j][0] = r[0], b_frag[buf][2 * j][1] = r[1];
        b_frag[buf][2 * j + 1][0] = r[2], b_frag[buf][2 * j + 1][1] = r[3];
      } else {
        b_frag[buf][j][0] = lds32(bs + b_lane[j] + s * 8 * BN * sizeof(T));
        b_frag[buf][j][1] = lds32(bs + b_lane[j] + (s * 8 + 4) * BN * sizeof(T));
      }
    }
  };

  float acc[FM][FN][4] = {};
  // Prologue: STAGES - 1 tiles in flight. Every thread commits one group per tile, even an empty
  // one past the end of K, so "at most STAGES - 2 groups pending" always means "the next tile
  // to compute has landed".
  const int num_tiles = gemm::ceil_div(k_end - k_begin, BK);
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < num_tiles) copy_tile(k_begin + s * BK, s);
    cp_async_commit();
  }
  if (FRAG_BUFS == 2) {
    cp_async_wait<STAGES - 2>();
    __syncthreads();
    load_frags(0, 0, 0);
  }
  for (int tile = 0; tile < num_tiles; ++tile) {
    const int stage = tile % STAGES;
    // FRAG_BUFS 1: wait for tile t here; every warp is then also done with tile t - 1, whose
    // stage the copies issued next overwrite. FRAG_BUFS 2 waited at the end of tile t - 1.
    if (FRAG_BUFS == 1) {
      cp_async_wait<STAGES - 2>();
      __syncthreads();
    }
    const int next = tile + STAGES - 1;
    if (next < num_tiles) copy_tile(k_begin + next * BK, next % STAGES);
    cp_async_commit();

#pragma unroll
    for (int s = 0; s < STEPS; ++s) {
      if (FRAG_BUFS == 1) load_frags(0, stage, s);
      // FRAG_BUFS 2: the last step's fragments are in registers; wait for tile t + 1 and load its
      // first step's while the MMAs run. After this barrier no warp reads tile t's stage again.
      if (FRAG_BUFS == 2 && s == STEPS - 1) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
      }
      if (FRAG_BUFS == 2 && s + 1 < STEPS) load_frags((s + 1) % 2, stage, s + 1);
      if (FRAG_BUFS == 2 && s + 1 == STEPS && tile + 1 < num_tiles)
        load_frags(0, (tile + 1) % STAGES, 0);
      const int buf = FRAG_BUFS == 2 ? s % 2 : 0;
      // i outer, j inner: consecutive mma share their A fragment (4 registers), which the
      // register reuse cache keeps; j outer (as in 03-08) re-reads A for each.
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
          mma<T>(acc[i][j], a_frag[buf][i], b_frag[buf][j]);
    }
  }
  cp_async_wait<0>();  // only empty groups can be pending; leave none behind

  // Lane 4g + t holds columns 2t, 2t+1 of rows g (acc[..][0..1]) and g + 8 ([2..3]) of each 16x8
  // tile. Neighbouring lanes swap a pair, so that an even t holds columns 2t .. 2t+3 of row g and
  // an odd t the same four columns of row g + 8: one 16-byte store each.
  const int g = lane_id / 4, t = lane_id % 4;
  const bool odd = t % 2;
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      const float* d = acc[i][j];
      const float s0 = __shfl_xor_sync(0xffffffffu, odd ? d[0] : d[2], 1);
      const float s1 = __shfl_xor_sync(0xffffffffu, odd ? d[1] : d[3], 1);
      const float4 v = odd ? float4{s0, s1, d[2], d[3]} : float4{d[0], d[1], s0, s1};
      const int row = block_row + warp_row * WM + i * 16 + g + (odd ? 8 : 0);
      const int col = block_col + warp_col * WN + j * 8 + (t - t % 2) * 2;
      if (row < M && col < N) {
        if (gridDim.z == 1)
          gemm::store4<WIDE>(&C[row * N + col], v, alpha, beta, N - col);
        else
          gemm::add4(&C[row * N + col], v, alpha, N - col);
      }
    }
}

template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, int FRAG_BUFS = 2,
          bool SWIZZLE = true, bool SPLIT_K = true>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B, float beta,
                        float* C, cudaStream_t stream, gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  constexpr std::size_t smem = smem_bytes<T, BM, BN, BK, STAGES>();
  constexpr int threads = (BM / WM) * (BN / WN) * 32;
  auto kernel = gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, FRAG_BUFS, SWIZZLE, false>;
  if (gemm::wide_access(16 / sizeof(T), K, N, A, B, C, info))
    kernel = gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, FRAG_BUFS, SWIZZLE, true>;
  int per_sm = 0;  // blocks per SM, for split K: the shared memory decides
  if (cudaError_t err = gemm::dynamic_smem(kernel, threads, smem, per_sm)) return err;
  gemm::SplitK split;
  if (cudaError_t err =
          gemm::split_k(M, N, K, BM, BN, BK, SPLIT_K ? per_sm : 0, beta, C, stream, split, info))
    return err;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM), split.splits);
    kernel<<<grid, threads, smem, stream>>>(rows, N, K, split.k_chunk, alpha,
                                            A + std::size_t(row0) * K, B, beta,
                                            C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TF32 tensor cores for float A and B (README.md measures each shape in main.cu).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<float, 128, 128, 32, 64, 64, 3>(M, N, K, alpha, A, B, beta, C, stream);
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<__half, 128, 256, 32, 64, 64, 4>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch09
