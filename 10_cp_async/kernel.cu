// 10_cp_async: the next tiles no longer pass through registers. cp.async copies 16 bytes from
// global to shared memory without a register, into a ring of STAGES stages in dynamic shared
// memory: STAGES - 1 k-tiles are in flight while one is computed, cp.async.wait_group says when
// the next one has landed, and blocks whose tile lies inside C copy without bounds checks.
// Everything else is 09's. What should move: long_scoreboard and barrier stalls down (ncu:
// smsp__average_warps_issue_stalled_{long_scoreboard,barrier}_per_issue_active), more k-tiles in
// flight per SM, and the registers 09 held the next tile in freed (FP16's default spends them on
// double-buffered fragments).
#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

#include <cuda_fp16.h>

#include <type_traits>

namespace ch10 {

// Blocks per SM that __launch_bounds__ asks for: two blocks of 4 warps keep up to 255 registers
// per thread (a 64x64 warp tile holds 128 accumulators per lane); 8 warps allow one.
constexpr int blocks_per_sm(int warps) {
  return warps <= 4 ? 2 : 1;
}

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

template <class T, int BM, int BN, int BK, int STAGES>
__host__ __device__ constexpr std::size_t smem_bytes() {
  return std::size_t(STAGES) * (BM * BK + BK * BN) * sizeof(T);
}

// A block of (BM/WM) x (BN/WN) warps covers a BM x BN block of C; warp (warp_row, warp_col) owns
// the WM x WN warp tile at rows warp_row*WM, columns warp_col*WN, as (WM/16) x (WN/8) mma tiles.
// STAGES: the depth of the ring of k-tiles in shared memory.
// WIDE, chosen by the launcher: cp.async copies of 16 bytes and 16-byte stores of C; otherwise
// the same kernel loads element by element through registers into the same swizzled chunks.
// EARLY_BARRIER: each k-tile's barrier comes before its last step's MMAs (else after them).
// FRAG_BUFS 2: fragments double-buffered in registers, step k+1's read while step k's MMAs run.
// Split K (gridDim.z > 1): block z takes k in [z * k_chunk, (z + 1) * k_chunk) and adds alpha *
// its sum into C, which the launcher has already scaled by beta.
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool EARLY_BARRIER,
          int FRAG_BUFS, bool SWIZZLE, bool WIDE>
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
  static_assert(STAGES >= 2, "a stage to compute from and one to copy into");
  extern __shared__ __align__(128) unsigned char smem[];
  T* const As = reinterpret_cast<T*>(smem);  // [STAGES][BM][BK], rows unpadded, chunks swizzled
  T* const Bs = As + STAGES * BM * BK;       // [STAGES][BK][BN], the same
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

  // Tile k0 into stage `stage`, straight into shared memory: WIDE, through cp.async, nothing in
  // registers, zero-filled outside A or B; TF32 is not rounded (the tensor cores truncate).
  // Consecutive threads load consecutive 16-byte chunks along a row: coalesced 16-byte loads
  // (element by element, each load puts the lanes 16 bytes apart). A chunk that starts past the
  // matrix is zeros; one that crosses its edge (element by element) is cut.
  const auto load_tile = [&](int k0, int stage) {
#pragma unroll
    for (int pass = 0; pass < A_PASSES; ++pass) {
      const int i = tid + pass * NUM_THREADS;
      if (A_VECS % NUM_THREADS != 0 && i >= A_VECS) break;
      const int r = i / (BK / V), c = i % (BK / V) * V;
      const int row = block_row + r, k = k0 + c;
      const bool valid = row < M && k < k_end;
      if constexpr (WIDE)
        cp_async_16(As_s + a_at(stage, r, c) * sizeof(T), valid ? &A[row * K + k] : A, valid);
      else
        *reinterpret_cast<gemm::Vec16<T>*>(&As[a_at(stage, r, c)]) =
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
        cp_async_16(Bs_s + b_at(stage, r, c) * sizeof(T), valid ? &B[k * N + col] : B, valid);
      else
        *reinterpret_cast<gemm::Vec16<T>*>(&Bs[b_at(stage, r, c)]) =
            valid ? gemm::load16<false>(&B[k * N + col], N - col) : gemm::Vec16<T>{};
    }
  };

  // Blocks whose BM x BN tile lies inside C copy whole k-tiles without bounds checks: one start
  // per operand and thread, the passes at fixed strides (whole swizzle periods of rows apart, so
  // the shared offsets differ by constants), the k-tile added at each copy.
  constexpr int A_ROWS = NUM_THREADS / (BK / V), B_ROWS = NUM_THREADS / (BN / V);
  constexpr bool FULL_COPIES = A_VECS % NUM_THREADS == 0 && B_VECS % NUM_THREADS == 0 &&
                               NUM_THREADS % (BN / V) == 0 && A_ROWS % 8 == 0 &&
                               B_ROWS % (sizeof(T) == 2 ? 8 : 4) == 0;
  const bool interior = WIDE && block_row + BM <= M && block_col + BN <= N;
  const T* const a_src = A + (block_row + tid / (BK / V)) * K + tid % (BK / V) * V;
  const T* const b_src = B + tid / (BN / V) * N + block_col + tid % (BN / V) * V;
  const unsigned a_dst = a_at(0, tid / (BK / V), tid % (BK / V) * V) * sizeof(T);
  const unsigned b_dst = b_at(0, tid / (BN / V), tid % (BN / V) * V) * sizeof(T);
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
  // The next tile to compute has landed once at most STAGES - 2 groups are pending; the barrier
  // publishes every thread's copies of it, and after it no warp reads the stage just computed.
  const auto publish_next = [&]() {
    cp_async_wait<STAGES - 2>();
    __syncthreads();
  };

  float acc[FM][FN][4] = {};
  // Prologue: STAGES - 1 tiles in flight. Every thread commits one group per tile, even an empty
  // one past the end of K, so "at most STAGES - 2 groups pending" always means "the next tile
  // to compute has landed".
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (k_begin + s * BK < k_end) copy_tile(k_begin + s * BK, s);
    cp_async_commit();
  }
  publish_next();
  if (FRAG_BUFS == 2) load_frags(0, 0, 0);
  for (int k0 = k_begin, stage = 0; k0 < k_end; k0 += BK, stage = (stage + 1) % STAGES) {
    const bool has_next = k0 + BK < k_end;
    // Tile k0 + (STAGES - 1) BK, into the stage that tile k0 - BK left at the last barrier.
    const int k_copy = k0 + (STAGES - 1) * BK;
    if (k_copy < k_end) copy_tile(k_copy, (stage + STAGES - 1) % STAGES);
    cp_async_commit();

#pragma unroll
    for (int k = 0; k < BK; k += MMA_K) {
      if (FRAG_BUFS == 1) load_frags(0, stage, k);
      // EARLY_BARRIER: the barrier comes before the last step's MMAs, whose fragments are already
      // in registers, so a warp leaving it has MMAs to issue at once.
      if (EARLY_BARRIER && k == BK - MMA_K) publish_next();
      if (FRAG_BUFS == 2 && k + MMA_K < BK) load_frags((k / MMA_K + 1) % 2, stage, k + MMA_K);
      if (FRAG_BUFS == 2 && k + MMA_K == BK && has_next && EARLY_BARRIER)
        load_frags((k / MMA_K + 1) % 2, (stage + 1) % STAGES, 0);
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
      publish_next();
      if (FRAG_BUFS == 2 && has_next) load_frags(0, (stage + 1) % STAGES, 0);
    }
  }
  cp_async_wait<0>();  // only empty groups can be pending; leave none behind

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

template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool EARLY_BARRIER = false,
          int FRAG_BUFS = 1, bool SPLIT_K = true, bool SWIZZLE = true>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B, float beta,
                        float* C, cudaStream_t stream, gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  constexpr std::size_t smem = smem_bytes<T, BM, BN, BK, STAGES>();
  const dim3 block((BM / WM) * (BN / WN) * 32);
  auto kernel =
      gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, false>;
  if (gemm::wide_access(16 / sizeof(T), K, N, A, B, C, info))
    kernel = gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, EARLY_BARRIER, FRAG_BUFS, SWIZZLE, true>;
  int per_sm = 0;  // blocks per SM, for split K: the shared memory decides
  if (cudaError_t err = gemm::dynamic_smem(kernel, block.x, smem, per_sm)) return err;
  gemm::SplitK split;
  if (cudaError_t err =
          gemm::split_k(M, N, K, BM, BN, BK, SPLIT_K ? per_sm : 0, beta, C, stream, split, info))
    return err;
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM), split.splits);
    kernel<<<grid, block, smem, stream>>>(rows, N, K, split.k_chunk, alpha,
                                          A + std::size_t(row0) * K, B, beta,
                                          C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TF32 tensor cores for float A and B; 128x128 blocks of 4 warps, 64x64 per warp, a ring of 3
// k-tiles of 32, the barrier after each k-tile's last step, one set of fragments (double-buffered,
// they do not fit in 255 registers beside the accumulators without spilling).
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<float, 128, 128, 32, 64, 64, 3>(M, N, K, alpha, A, B, beta, C, stream);
}

// FP16 A and B, FP32 accumulators and C; 128x256 blocks of 8 warps, a ring of 4 k-tiles of 32,
// the barrier before each k-tile's last step, fragments double-buffered.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<__half, 128, 256, 32, 64, 64, 4, true, 2>(M, N, K, alpha, A, B, beta, C,
                                                               stream);
}

}  // namespace ch10
