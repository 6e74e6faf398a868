// 08_wmma_tensorcore: the products move from the CUDA cores to the tensor cores. A warp, not a
// thread, is now the unit of work: through nvcuda::wmma it multiplies 16x16 fragments in one
// instruction stream (m16n16k8 in TF32 for float inputs, m16n16k16 for FP16 inputs), with FP32
// accumulators. The block tile is staged in shared memory by cp.async in a STAGES-deep ring so
// that global loads run under the tensor-core work (FP16 without 16-byte rows goes through
// registers instead, see load_tile).
// What should move: time, by up to the ratio of tensor-core to FP32 throughput per SM and clock
// (Hopper: 8x in TF32, 16x with FP16 inputs), as far as WMMA and shared memory can feed them.
#include "gemm_check.h"
#include "kernel_utils.cuh"

#include <cuda_fp16.h>
#include <mma.h>

#include <type_traits>

namespace ch08 {

namespace wmma = nvcuda::wmma;

// The WMMA shape for each input type: FP16 multiplies 16x16x16 per instruction, TF32 16x16x8.
template <class T>
struct MmaShape;
template <>
struct MmaShape<__half> {
  static constexpr int K = 16;
  using Precision = __half;
};
template <>
struct MmaShape<float> {
  static constexpr int K = 8;
  using Precision = wmma::precision::tf32;
};

// 16-byte asynchronous copy global -> shared. With valid == false nothing is read and the 16
// bytes are zero-filled: that is how edge tiles get their zeros.
__device__ __forceinline__ void cp_async_16(void* smem, const void* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(gmem),
               "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING));
}

// One float global -> shared, asynchronously; zero where !valid (nothing is read then).
__device__ __forceinline__ void cp_async_4(float* smem, const float* gmem, bool valid) {
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(gmem),
               "r"(valid ? 4 : 0));
}

// Shared-memory layout of one stage, with padded rows so that fragment loads don't conflict.
// FP16 fragments are read 8 rows x 16 bytes per phase: 16 bytes of padding start each row 4
// banks further on (A: 80-byte rows -> banks 0, 20, 8, 28, 16, 4, 24, 12). TF32 fragments are
// read as single words, lane (g, t) = (lane / 4, lane % 4) taking A[g][t] and B[t][g]: A rows
// padded by 4 words put that at bank 4g + t, B rows padded by 8 words at bank 8t + g, both a
// permutation of the 32 banks. Every padding keeps ldm a multiple of 16 bytes, as WMMA needs.
template <class T, int BM, int BN, int BK>
struct Tiles {
  static constexpr int LDA = BK + 16 / sizeof(T), LDB = BN + 8;
  static constexpr int A_ELEMS = BM * LDA, B_ELEMS = BK * LDB;
  static constexpr std::size_t STAGE_BYTES = (A_ELEMS + B_ELEMS) * sizeof(T);
};

template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES>
__host__ __device__ constexpr std::size_t smem_bytes() {
  return STAGES * Tiles<T, BM, BN, BK>::STAGE_BYTES;
}

// A block of (BM/WM) x (BN/WN) warps covers a BM x BN block of C; each warp a WM x WN warp tile,
// held as (WM/16) x (WN/16) accumulator fragments.
// WIDE, chosen by the launcher: 16-byte copies and stores where K and N are multiples of 4 floats
// or 8 halves and A, B, C are 16-byte aligned; otherwise the same kernel element by element,
// which any shape and element-aligned pointers allow.
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, bool WIDE>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    gemm_kernel(int M, int N, int K, float alpha, const T* A, const T* B, float beta, float* C) {
  using L = Tiles<T, BM, BN, BK>;
  constexpr int MMA_K = MmaShape<T>::K;
  constexpr int NUM_THREADS = (BM / WM) * (BN / WN) * 32;
  constexpr int CHUNK = 16 / sizeof(T);  // elements per 16-byte copy
  constexpr int A_CHUNKS = BM * BK / CHUNK, B_CHUNKS = BK * BN / CHUNK;
  constexpr int FM = WM / 16, FN = WN / 16;
  static_assert(A_CHUNKS % NUM_THREADS == 0 && B_CHUNKS % NUM_THREADS == 0, "even copy passes");
  static_assert(WM % 16 == 0 && WN % 16 == 0 && BK % MMA_K == 0, "whole fragments");
  static_assert(
      NUM_THREADS / 32 * 256 * sizeof(float) <= smem_bytes<T, BM, BN, BK, WM, WN, STAGES>(),
      "the epilogue reuses the tiles' shared memory");

  extern __shared__ __align__(128) unsigned char smem[];
  T* const As = reinterpret_cast<T*>(smem);  // [STAGES][BM][LDA]
  T* const Bs = As + STAGES * L::A_ELEMS;    // [STAGES][BK][LDB]

  const int tid = threadIdx.x;
  const int warp_id = tid / 32, lane_id = tid % 32;
  const int warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);
  const int block_row = blockIdx.y * BM, block_col = blockIdx.x * BN;

  // Without 16-byte alignment: one element per access, consecutive threads on consecutive
  // elements of a row (coalesced). Calls copy(e, shared, global, valid) for the e-th element this
  // thread copies of tile k0 into stage `stage`.
  const auto for_each_element = [&](int k0, int stage, auto&& copy) {
    static_assert(NUM_THREADS % BK == 0 && NUM_THREADS % BN == 0, "whole rows per pass");
    T* const as = As + stage * L::A_ELEMS;
    T* const bs = Bs + stage * L::B_ELEMS;
#pragma unroll
    for (int e = 0; e < BM * BK / NUM_THREADS; ++e) {
      const int r = tid / BK + e * (NUM_THREADS / BK), c = tid % BK;
      const int row = block_row + r, k = k0 + c;
      const bool valid = row < M && k < K;
      copy(e, &as[r * L::LDA + c], valid ? &A[row * K + k] : A, valid);
    }
#pragma unroll
    for (int e = 0; e < BK * BN / NUM_THREADS; ++e) {
      const int r = tid / BN + e * (NUM_THREADS / BN), c = tid % BN;
      const int k = k0 + r, col = block_col + c;
      const bool valid = k < K && col < N;
      copy(BM * BK / NUM_THREADS + e, &bs[r * L::LDB + c], valid ? &B[k * N + col] : B, valid);
    }
  };
  // A __half (2 bytes) is below cp.async's smallest copy (4), so on the element path FP16 goes
  // through registers: load_tile only loads into `staged`, every load before the first store so
  // that their latencies overlap, and under the MMAs that follow; store_tile writes them.
  constexpr bool STAGED = !WIDE && std::is_same_v<T, __half>;
  [[maybe_unused]] __half2 staged[(BM * BK + BK * BN) / NUM_THREADS / 2];

  // Issues the copies of tile k0 into stage `stage`; elements outside A or B are zero-filled.
  const auto load_tile = [&](int k0, int stage) {
    if constexpr (WIDE) {
      T* const as = As + stage * L::A_ELEMS;
      T* const bs = Bs + stage * L::B_ELEMS;
#pragma unroll
      for (int pass = 0; pass < A_CHUNKS / NUM_THREADS; ++pass) {
        const int i = tid + pass * NUM_THREADS;
        const int r = i / (BK / CHUNK), c = i % (BK / CHUNK) * CHUNK;
        const int row = block_row + r, k = k0 + c;
        const bool valid = row < M && k < K;
        cp_async_16(&as[r * L::LDA + c], valid ? &A[row * K + k] : A, valid);
      }
#pragma unroll
      for (int pass = 0; pass < B_CHUNKS / NUM_THREADS; ++pass) {
        const int i = tid + pass * NUM_THREADS;
        const int r = i / (BN / CHUNK), c = i % (BN / CHUNK) * CHUNK;
        const int k = k0 + r, col = block_col + c;
        const bool valid = k < K && col < N;
        cp_async_16(&bs[r * L::LDB + c], valid ? &B[k * N + col] : B, valid);
      }
    } else {
      for_each_element(k0, stage, [&](int e, T* s, const T* g, bool valid) {
        if constexpr (STAGED)
          (e % 2 ? staged[e / 2].y : staged[e / 2].x) = valid ? *g : __float2half(0.0f);
        else
          cp_async_4(s, g, valid);
      });
    }
  };
  const auto store_tile = [&](int k0, int stage) {
    if constexpr (STAGED)
      for_each_element(k0, stage, [&](int e, T* s, const T*, bool) {
        *s = e % 2 ? staged[e / 2].y : staged[e / 2].x;
      });
  };

  wmma::fragment<wmma::accumulator, 16, 16, MMA_K, float> acc[FM][FN];
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);

  // Prologue: STAGES - 1 tiles in flight. Every thread commits one group per tile, even an
  // empty one past the end of K, so "wait until at most STAGES - 2 groups are pending" always
  // means "the tile about to be computed has landed".
  const int num_tiles = gemm::ceil_div(K, BK);
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < num_tiles) load_tile(s * BK, s), store_tile(s * BK, s);
    cp_async_commit();
  }

  for (int t = 0; t < num_tiles; ++t) {
    cp_async_wait<STAGES - 2>();
    // Tile t is visible to every warp, and every warp is done with tile t - 1, whose stage the
    // copies issued next will overwrite.
    __syncthreads();
    const int next = t + STAGES - 1;
    if (next < num_tiles) load_tile(next * BK, next % STAGES);
    cp_async_commit();

    const T* const as = As + (t % STAGES) * L::A_ELEMS;
    const T* const bs = Bs + (t % STAGES) * L::B_ELEMS;
#pragma unroll
    for (int kk = 0; kk < BK; kk += MMA_K) {
      wmma::fragment<wmma::matrix_a, 16, 16, MMA_K, typename MmaShape<T>::Precision,
                     wmma::row_major>
          a_frag[FM];
      wmma::fragment<wmma::matrix_b, 16, 16, MMA_K, typename MmaShape<T>::Precision,
                     wmma::row_major>
          b_frag[FN];
#pragma unroll
      for (int i = 0; i < FM; ++i) {
        wmma::load_matrix_sync(a_frag[i], &as[(warp_row * WM + i * 16) * L::LDA + kk], L::LDA);
        if constexpr (std::is_same_v<T, float>)
#pragma unroll
          for (int e = 0; e < a_frag[i].num_elements; ++e)
            a_frag[i].x[e] = wmma::__float_to_tf32(a_frag[i].x[e]);
      }
#pragma unroll
      for (int j = 0; j < FN; ++j) {
        wmma::load_matrix_sync(b_frag[j], &bs[kk * L::LDB + warp_col * WN + j * 16], L::LDB);
        if constexpr (std::is_same_v<T, float>)
#pragma unroll
          for (int e = 0; e < b_frag[j].num_elements; ++e)
            b_frag[j].x[e] = wmma::__float_to_tf32(b_frag[j].x[e]);
      }
#pragma unroll
      for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
          wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
    }
    if (next < num_tiles) store_tile(next * BK, next % STAGES);
  }

  // Epilogue: a fragment's element-to-lane mapping is opaque, so each warp stores a fragment to
  // its own 16x16 scratch in shared memory and writes it out row by row with alpha, beta and
  // the bounds checks: lane l takes row l/2, columns (l%2)*8 .. +7, as two float4s (16-byte
  // path) or eight floats.
  cp_async_wait<0>();
  __syncthreads();  // every warp is done with the tiles; their memory becomes scratch
  float* const scratch = reinterpret_cast<float*>(smem) + warp_id * 256;
#pragma unroll
  for (int i = 0; i < FM; ++i)
#pragma unroll
    for (int j = 0; j < FN; ++j) {
      wmma::store_matrix_sync(scratch, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      const int r = lane_id / 2, c = lane_id % 2 * 8;
      const int row = block_row + warp_row * WM + i * 16 + r;
#pragma unroll
      for (int h = 0; h < 8; h += 4) {
        const int col = block_col + warp_col * WN + j * 16 + c + h;
        if (row < M && col < N)
          gemm::store4<WIDE>(&C[row * N + col], gemm::load_float4(&scratch[r * 16 + c + h]), alpha,
                             beta, N - col);
      }
      __syncwarp();  // the scratch is overwritten by the next fragment
    }
}

template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B, float beta,
                        float* C, cudaStream_t stream) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  constexpr std::size_t smem = smem_bytes<T, BM, BN, BK, WM, WN, STAGES>();
  auto kernel = gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, false>;
  if (gemm::wide_access(16 / sizeof(T), K, N, A, B, C))
    kernel = gemm_kernel<T, BM, BN, BK, WM, WN, STAGES, true>;
  // More than 48 KB of dynamic shared memory must be asked for explicitly.
  if (cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)))
    return err;
  const dim3 block((BM / WM) * (BN / WN) * 32);
  return gemm::for_each_row_slice(M, BM, [&](int row0, int rows) {
    const dim3 grid(gemm::ceil_div(N, BN), gemm::ceil_div(rows, BM));
    kernel<<<grid, block, smem, stream>>>(rows, N, K, alpha, A + std::size_t(row0) * K, B, beta,
                                          C + std::size_t(row0) * N);
    return cudaGetLastError();
  });
}

// TF32 tensor cores for float A and B. 128x128x32 blocks of 4 warps, 64x64 per warp, 3 stages:
// the fastest of the shapes in main.cu on the H200 (README.md), for both entry points.
cudaError_t sgemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<float, 128, 128, 32, 64, 64, 3>(M, N, K, alpha, A, B, beta, C, stream);
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<__half, 128, 128, 32, 64, 64, 3>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch08
