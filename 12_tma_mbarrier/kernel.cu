// 12_tma_mbarrier: the copies move to the TMA unit (sm_90a). Thread 0 issues one tensor copy per
// operand and 64-column box, described once per operand by a tensor map, into the same
// 128-byte-swizzled stages; an mbarrier per stage counts the bytes as they land, and the threads
// wait on its phase instead of on their own cp.async groups. TMA writes through the async proxy
// that wgmma reads, so 11's proxy fence goes away too.
// What should move against 11: issued instructions down (3,072 cp.async per k-tile, each with its
// address and bounds, become 6 copies in one thread), tensor-pipe utilization up.
// Host plumbing that is not the lesson (the sm_90a probe, tensor maps, aligned copies of A or B
// where TMA cannot read them) is in common/hopper.cuh.
#include "gemm_check.h"
#include "hopper.cuh"
#include "split_k.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

namespace ch12 {

constexpr int BM = 128;       // two warpgroups of 64 rows each
constexpr int BK = 64;        // 64 halves = 128 bytes: one row of the 128-byte swizzle
constexpr int THREADS = 256;  // warpgroups 0 and 1 both compute; thread 0 also issues the copies

template <int BN, int STAGES>
constexpr std::size_t smem_bytes() {
  // + 1024: the swizzle pattern repeats every 1024 bytes, so the tiles start 1024-aligned.
  return 1024 + std::size_t(STAGES) * (BM + BN) * BK * sizeof(__half) + STAGES * 8;
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define HAS_SM90A 1
#endif

__device__ __forceinline__ unsigned smem_u32(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// ---- mbarriers: a 64-bit word in shared memory that counts arrivals and bytes ---------------
__device__ __forceinline__ void mbar_init(unsigned bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals));
}
// The producer's arrival, announcing how many bytes the copies will deliver.
__device__ __forceinline__ void mbar_expect_bytes(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
}
// Waits until the barrier's phase of this parity has completed.
__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity) {
  asm volatile(
      "{\n.reg .pred done;\nwait_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra wait_%=;\n}\n" ::"r"(bar),
      "r"(parity)
      : "memory");
}

// ---- TMA: one box of a tensor map (coordinates innermost first) into shared memory -----------
__device__ __forceinline__ void tma_load(unsigned dst, const CUtensorMap* map, int c0, int c1,
                                         unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

// ---- wgmma -----------------------------------------------------------------------------------
// Shared-memory matrix descriptor: start address, leading and stride byte offsets (all >> 4),
// bits 62-63 = 1: the 128-byte swizzle.
__device__ __forceinline__ unsigned long long smem_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return ((addr & 0x3FFFF) >> 4) | (unsigned long long)(lbo >> 4) << 16 |
         (unsigned long long)(sbo >> 4) << 32 | 1ull << 62;
}
__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int PENDING>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
}

#define WGMMA_ACC8(i)                                                                   \
  "+f"(acc[i]), "+f"(acc[i + 1]), "+f"(acc[i + 2]), "+f"(acc[i + 3]), "+f"(acc[i + 4]), \
      "+f"(acc[i + 5]), "+f"(acc[i + 6]), "+f"(acc[i + 7])
#define WGMMA_R8(a, b, c, e, f, g, h, k) \
  "%" #a ", %" #b ", %" #c ", %" #e ", %" #f ", %" #g ", %" #h ", %" #k

// acc (64 x BN, FP32, in registers) += A (64 x 16, K-major) * B (16 x BN, MN-major: the last
// immediate, trans-b = 1), both of input type T (FP16 or BF16: one macro per width, the types
// its argument); scale_d = 0 overwrites acc. Warp w of the warpgroup holds rows
// 16w + l/4 and 16w + 8 + l/4; acc[4j .. 4j+3] are columns 8j + 2(l%4) + {0, 1} of those rows.
template <int BN, class T>
__device__ __forceinline__ void wgmma(float (&acc)[BN / 2], unsigned long long desc_a,
                                      unsigned long long desc_b, int scale_d);
#define WGMMA_256(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"                                                \
      "wgmma.mma_async.sync.aligned.m64n256k16.f32" TYPES " {"                                     \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15) ", "            \
      WGMMA_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGMMA_R8(24, 25, 26, 27, 28, 29, 30, 31) ", "  \
      WGMMA_R8(32, 33, 34, 35, 36, 37, 38, 39) ", " WGMMA_R8(40, 41, 42, 43, 44, 45, 46, 47) ", "  \
      WGMMA_R8(48, 49, 50, 51, 52, 53, 54, 55) ", " WGMMA_R8(56, 57, 58, 59, 60, 61, 62, 63) ", "  \
      WGMMA_R8(64, 65, 66, 67, 68, 69, 70, 71) ", " WGMMA_R8(72, 73, 74, 75, 76, 77, 78, 79) ", "  \
      WGMMA_R8(80, 81, 82, 83, 84, 85, 86, 87) ", " WGMMA_R8(88, 89, 90, 91, 92, 93, 94, 95) ", "  \
      WGMMA_R8(96, 97, 98, 99, 100, 101, 102, 103) ", "                                            \
      WGMMA_R8(104, 105, 106, 107, 108, 109, 110, 111) ", "                                        \
      WGMMA_R8(112, 113, 114, 115, 116, 117, 118, 119) ", "                                        \
      WGMMA_R8(120, 121, 122, 123, 124, 125, 126, 127)                                             \
      "}, %128, %129, p, 1, 1, 0, 1;\n}\n"                                                         \
      : WGMMA_ACC8(0), WGMMA_ACC8(8), WGMMA_ACC8(16), WGMMA_ACC8(24), WGMMA_ACC8(32),              \
        WGMMA_ACC8(40), WGMMA_ACC8(48), WGMMA_ACC8(56), WGMMA_ACC8(64), WGMMA_ACC8(72),            \
        WGMMA_ACC8(80), WGMMA_ACC8(88), WGMMA_ACC8(96), WGMMA_ACC8(104), WGMMA_ACC8(112),          \
        WGMMA_ACC8(120)                                                                            \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma<256, __half>(float (&acc)[128], unsigned long long desc_a,
                                                   unsigned long long desc_b, int scale_d) {
  WGMMA_256(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma<256, __nv_bfloat16>(float (&acc)[128],
                                                          unsigned long long desc_a,
                                                          unsigned long long desc_b, int scale_d) {
  WGMMA_256(".bf16.bf16");
}
#define WGMMA_128(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n128k16.f32" TYPES " {"                                     \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15) ", "            \
      WGMMA_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGMMA_R8(24, 25, 26, 27, 28, 29, 30, 31) ", "  \
      WGMMA_R8(32, 33, 34, 35, 36, 37, 38, 39) ", " WGMMA_R8(40, 41, 42, 43, 44, 45, 46, 47) ", "  \
      WGMMA_R8(48, 49, 50, 51, 52, 53, 54, 55) ", " WGMMA_R8(56, 57, 58, 59, 60, 61, 62, 63)       \
      "}, %64, %65, p, 1, 1, 0, 1;\n}\n"                                                           \
      : WGMMA_ACC8(0), WGMMA_ACC8(8), WGMMA_ACC8(16), WGMMA_ACC8(24), WGMMA_ACC8(32),              \
        WGMMA_ACC8(40), WGMMA_ACC8(48), WGMMA_ACC8(56)                                             \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma<128, __half>(float (&acc)[64], unsigned long long desc_a,
                                                   unsigned long long desc_b, int scale_d) {
  WGMMA_128(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma<128, __nv_bfloat16>(float (&acc)[64],
                                                          unsigned long long desc_a,
                                                          unsigned long long desc_b, int scale_d) {
  WGMMA_128(".bf16.bf16");
}

// Block blockIdx.x computes work unit blockIdx.x (a tile of C, or a K-chunk of one when K is
// split), row by row. k_chunk: K per split (a multiple of BK).
// Split K adds with atomics; pairs: N even and C 8-byte aligned, for 8-byte stores.
template <int BN, int STAGES, bool WAIT_PREVIOUS, class T = __half>
__global__ void __launch_bounds__(THREADS, 1)
    gemm_kernel(int M, int N, int K, int k_chunk, float alpha, float beta, float* C, bool pairs,
                const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b) {
#ifdef HAS_SM90A
  constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  // A stage: BM rows of 128 bytes (64 k). B stage: BN / 64 boxes of BK rows (k) x 128 bytes (n).
  unsigned char* As = smem;
  unsigned char* Bs = smem + STAGES * A_BYTES;
  const unsigned full = smem_u32(Bs + STAGES * B_BYTES);  // full[s]: the stage has landed
  const int wg = threadIdx.x / 128, wg_tid = threadIdx.x % 128;

  const int cols = gemm::ceil_div(N, BN), splits = gemm::ceil_div(K, k_chunk);
  const int unit = blockIdx.x;
  const int row = unit / splits / cols * BM, col = unit / splits % cols * BN;
  const int k0 = unit % splits * k_chunk, k1 = min(K, k0 + k_chunk);
  const int tiles = gemm::ceil_div(k1 - k0, BK);

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s)
      mbar_init(full + 8 * s, 1);  // thread 0's arrival (plus the bytes)
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();  // the barriers exist before anyone copies or waits

  // Thread 0 copies k-tile t into stage t % STAGES: one arrival that announces the bytes, then
  // the copies, whose bytes complete the barrier's phase as they land.
  const auto copy_tile = [&](int t) {
    const int s = t % STAGES, k = k0 + t * BK;
    mbar_expect_bytes(full + 8 * s, A_BYTES + B_BYTES);
    tma_load(smem_u32(As + s * A_BYTES), &map_a, k, row, full + 8 * s);
    for (int b = 0; b < BN / 64; ++b)
      tma_load(smem_u32(Bs + s * B_BYTES + b * BK * 128), &map_b, col + 64 * b, k, full + 8 * s);
  };
  // k-tiles in flight ahead of the one computed; WAIT_PREVIOUS keeps one more stage busy, read
  // by the wgmmas still running.
  constexpr int AHEAD = STAGES - (WAIT_PREVIOUS ? 2 : 1);
  static_assert(AHEAD >= 1, "too few stages");
  if (threadIdx.x == 0)
    for (int t = 0; t < AHEAD && t < tiles; ++t)
      copy_tile(t);

  float acc[BN / 2];
  for (int t = 0; t < tiles; ++t) {
    const int s = t % STAGES;
    // The stage refilled now last held k-tile t + AHEAD - STAGES, whose wgmmas every warpgroup
    // has finished before this barrier (the wgmma_wait of the iteration before).
    __syncthreads();
    if (threadIdx.x == 0 && t + AHEAD < tiles) copy_tile(t + AHEAD);
    mbar_wait(full + 8 * s, (t / STAGES) & 1);  // round t / STAGES of stage s has landed
    const unsigned a = smem_u32(As + s * A_BYTES + wg * 64 * 128);
    const unsigned b = smem_u32(Bs + s * B_BYTES);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BK / 16; ++kk) {
      // A, K-major: 16 k = 32 bytes along the swizzled 128-byte row; 8-row groups 1024 B
      // apart (stride; the leading offset is unused for a swizzled K-major operand). B,
      // MN-major: 16 k = 16 rows of 128 bytes; 8-row groups 1024 B apart (stride), 64-column
      // boxes BK * 128 B apart (leading). The stages are 1024-byte aligned, so the swizzle
      // pattern starts at each stage and a start moved along the row stays in step with it.
      wgmma<BN, T>(acc, smem_desc(a + kk * 32, 16, 1024),
                   smem_desc(b + kk * 16 * 128, BK * 128, 1024), t > 0 || kk > 0);
    }
    wgmma_commit();
    // WAIT_PREVIOUS: this k-tile's wgmmas keep running; the previous one's are done.
    if (WAIT_PREVIOUS)
      wgmma_wait<1>();
    else
      wgmma_wait<0>();
  }
  wgmma_wait<0>();

  const int warp_id = wg_tid / 32, lane_id = wg_tid % 32;  // in the warpgroup
  // Epilogue straight from the accumulators: each lane holds column pairs of two rows.
  const int r0 = row + wg * 64 + warp_id * 16 + lane_id / 4, c0 = col + 2 * (lane_id % 4);
#pragma unroll
  for (int j = 0; j < BN / 8; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = r0 + 8 * h, c = c0 + 8 * j;
      if (r >= M || c >= N) continue;
      float* out = C + static_cast<std::size_t>(r) * N + c;
      const float v0 = alpha * acc[4 * j + 2 * h], v1 = alpha * acc[4 * j + 2 * h + 1];
      if (splits > 1) {  // C already holds beta * C: add this K-chunk's part
        atomicAdd(out, v0);
        if (c + 1 < N) atomicAdd(out + 1, v1);
      } else if (pairs) {  // N even and C 8-byte aligned: one 8-byte store
        float2 v = make_float2(v0, v1);
        if (beta != 0.0f) {
          const float2 old = *reinterpret_cast<const float2*>(out);
          v.x += beta * old.x;
          v.y += beta * old.y;
        }
        *reinterpret_cast<float2*>(out) = v;
      } else {
        out[0] = beta == 0.0f ? v0 : v0 + beta * out[0];
        if (c + 1 < N) out[1] = beta == 0.0f ? v1 : v1 + beta * out[1];
      }
    }
#endif
}

// One block per work unit. SPLIT_K: the rule of common/split_k.cuh with one block per SM. T, the
// input type: __half or __nv_bfloat16 (from A and B).
template <int BN, int STAGES, bool WAIT_PREVIOUS = true, bool SPLIT_K = true, class T = __half>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const gemm::Hopper* gpu = nullptr;
  if (cudaError_t err = gemm::hopper(gpu, info)) return err;
  if (K == 0) return gemm::scale_c(1LL * M * N, beta, C, stream);  // C = beta * C
  auto kernel = gemm_kernel<BN, STAGES, WAIT_PREVIOUS, T>;
  constexpr std::size_t smem = smem_bytes<BN, STAGES>();
  int per_sm = 0;  // blocks per SM: one, for its shared memory
  if (cudaError_t err = gemm::dynamic_smem(kernel, THREADS, smem, per_sm)) return err;
  gemm::TmaInputs<T> in;  // copied into aligned scratch first where TMA cannot read them
  if (cudaError_t err = in.prepare(*gpu, A, B, M, N, K, BM, BK, stream, info)) return err;
  gemm::SplitK split;
  cudaError_t err =
      gemm::split_k(M, N, K, BM, BN, BK, SPLIT_K ? 1 : 0, beta, C, stream, split, info);
  const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  const long long units = 1LL * gemm::ceil_div(M, BM) * gemm::ceil_div(N, BN) * split.splits;
  if (!err) {
    kernel<<<unsigned(units), THREADS, smem, stream>>>(M, N, K, split.k_chunk, alpha, beta, C,
                                                       pairs, in.a, in.b);
    err = cudaGetLastError();
  }
  return in.release(stream, err);
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_launch<256, 4>(M, N, K, alpha, A, B, beta, C, stream);
}

// BF16 A and B (FP32's exponent, 8 bits of mantissa), FP32 accumulators and C.
cudaError_t bgemm(int M, int N, int K, float alpha, const __nv_bfloat16* A,
                  const __nv_bfloat16* B, float beta, float* C, cudaStream_t stream) {
  return gemm_launch<256, 4>(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch12
