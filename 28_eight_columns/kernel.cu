// 28_eight_columns: C^T's tiles of 64 rows half as wide where the narrower tiles make one round and
// the wider would be cut along K (sm_90a). At 16 x 4096 x 4096 C^T's tiles of 64 x 16 are 64, half
// the SMs, and the launcher cuts each in two along K: two blocks a tile, the second waiting for the
// first to be in C before it adds its sums with atomics. wgmma's narrowest product, m64n8k16, makes
// them 128 tiles of 64 x 8, each whole on its own SM over all of K: no wait, no atomics, no flags;
// each tile of B^T is read by two blocks (L2 serves the second). The same at 17-32 rows (64 x 16
// for 64 x 32) and 33-64 (64 x 32 for 64 x 64). Where the tiles are whole already (16 x 8192 x
// 8192) or half the width makes no more tiles (8 rows or fewer), 27's.
// What should move: the time where 16-column tiles are cut, and DRAM's throughput; L2's read
// sectors rise.
// Host plumbing that is not the lesson (the sm_90a probe, tensor maps, the scratch for the copies
// of A or B where TMA cannot read them, cluster launches) is in common/hopper.cuh.
#include "gemm_check.h"
#include "hopper.cuh"
#include "split_k.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

namespace ch28 {

constexpr int BM = 128;  // a tile's rows: 64 per consumer warpgroup, two (TM = 192: three, 64: one)
constexpr int BK = 64;   // 64 halves = 128 bytes: one row of the 128-byte swizzle
// Warpgroup 0 produces, the others consume: 256 threads for 64 rows, 384 for 128, 512 for 192.
__host__ __device__ constexpr int threads(int tm) { return 128 * (1 + tm / 64); }
// setmaxnreg: the producer gives registers back, the consumers share the rest of the 65,536 in
// steps of 8: 232 each for two consumer warpgroups (128 x 40 + 256 x 232 = 64,512), 152 for three
// (128 x 40 + 384 x 152 = 63,488); one takes 232 as well, far more than its 64 rows need.
constexpr int PRODUCER_REGS = 40;
__host__ __device__ constexpr int consumer_regs(int tm) {
  return tm == 64 ? 232 : (512 - PRODUCER_REGS) / (tm / 64) / 8 * 8;
}

// TMA_STORE: each consumer warpgroup stages C through two buffers of 64 rows x 32 columns.
constexpr int C_CHUNK = 32, C_BUF_BYTES = 64 * C_CHUNK * 4;
// C buffers per consumer warpgroup: two for 128-row tiles, one for 192 rows, so that four stages
// of 48 KB fit (4 x 48 + 3 x 8 = 216 KB of the 227).
__host__ __device__ constexpr int c_bufs(int tm) { return tm == 128 ? 2 : 1; }
// Of a tile's BN / C_CHUNK chunks, the last DEFERRED wait in registers (16 floats per thread
// each) until the next piece's k-loop.
constexpr int DEFERRED = 4;
// A 192-row tile's consumers hold 96 accumulators a thread; with 2 chunks waiting beside them
// ptxas spilled (144 bytes), with 1 it does not. Its stages: four of 48 KB (with three the
// consumers waited for loads: README).
constexpr int TALL_DEFER = 1, TALL_STAGES = 4;
// Stream-K costs each cluster a second epilogue and a wait: it runs where sharing out the last
// round saves each cluster more than MIN_GAIN k-tiles (measured, README: it lost with 8 at 4096^3
// and 12 at 1024^3, and won with 28 at 2304^3).
constexpr int MIN_GAIN = 16;

template <int BN, int STAGES, bool TMA_STORE, int TM = BM>
constexpr std::size_t smem_bytes() {
  // + 1024: the swizzle pattern repeats every 1024 bytes, so the tiles start 1024-aligned.
  return 1024 + std::size_t(STAGES) * (TM + BN) * BK * sizeof(__half) +
         (TMA_STORE ? TM / 64 * c_bufs(TM) * C_BUF_BYTES : 0) + 2 * STAGES * 8;
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
// An arrival on a barrier of this block.
__device__ __forceinline__ void mbar_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Arrives on the barrier at the same address in block `cta` of the cluster (possibly this one).
// The consumers say that their wgmma have finished reading a stage, so that a producer may
// overwrite it; wgmma.wait_group has already completed those reads, and the consumers publish
// no data, so the default ordering (release at block scope) is enough. RELEASE_CLUSTER: release
// at cluster scope, which makes the thread wait for a GPU-wide memory barrier first (variant
// "_release").
template <bool RELEASE_CLUSTER>
__device__ __forceinline__ void mbar_arrive_cluster(unsigned bar, unsigned cta) {
  if (RELEASE_CLUSTER)
    asm volatile(
        "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
        "r"(cta)
        : "memory");
  else
    asm volatile(
        "{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(bar),
        "r"(cta)
        : "memory");
}

// ---- clusters --------------------------------------------------------------------------------
__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::
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
// The same box into every block of the cluster in `mask`, at the same shared address, each
// block's barrier at `bar` counting the bytes.
__device__ __forceinline__ void tma_load_multicast(unsigned dst, const CUtensorMap* map, int c0,
                                                   int c1, unsigned bar, unsigned short mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(map), "r"(c0), "r"(c1), "r"(bar), "h"(mask)
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

// ---- the asynchronous store: shared memory -> C through the TMA unit -------------------------
__device__ __forceinline__ void tma_store(const CUtensorMap* map, unsigned src, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];" ::"l"(map),
      "r"(src), "r"(c0), "r"(c1)
      : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// The same box added to what C holds (a reduction, element by element, in L2).
__device__ __forceinline__ void tma_add(const CUtensorMap* map, unsigned src, int c0, int c1) {
  asm volatile(
      "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%2, %3}], [%1];"
      ::"l"(map), "r"(src), "r"(c0), "r"(c1)
      : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}
// Waits until at most PENDING of this thread's stores still read their shared memory.
template <int PENDING>
__device__ __forceinline__ void tma_store_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(PENDING) : "memory");
}
// Waits until this thread's stores have all completed: C holds them.
__device__ __forceinline__ void tma_store_wait_all() {
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}
// A barrier for the 128 threads of one warpgroup (id 1 or 2; 0 is __syncthreads).
__device__ __forceinline__ void warpgroup_sync(int id) {
  asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory");
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

#define WGMMA_192(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n192k16.f32" TYPES " {"                                     \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15) ", "            \
      WGMMA_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGMMA_R8(24, 25, 26, 27, 28, 29, 30, 31) ", "  \
      WGMMA_R8(32, 33, 34, 35, 36, 37, 38, 39) ", " WGMMA_R8(40, 41, 42, 43, 44, 45, 46, 47) ", "  \
      WGMMA_R8(48, 49, 50, 51, 52, 53, 54, 55) ", " WGMMA_R8(56, 57, 58, 59, 60, 61, 62, 63) ", "  \
      WGMMA_R8(64, 65, 66, 67, 68, 69, 70, 71) ", " WGMMA_R8(72, 73, 74, 75, 76, 77, 78, 79) ", "  \
      WGMMA_R8(80, 81, 82, 83, 84, 85, 86, 87) ", " WGMMA_R8(88, 89, 90, 91, 92, 93, 94, 95)       \
      "}, %96, %97, p, 1, 1, 0, 1;\n}\n"                                                           \
      : WGMMA_ACC8(0), WGMMA_ACC8(8), WGMMA_ACC8(16), WGMMA_ACC8(24), WGMMA_ACC8(32),              \
        WGMMA_ACC8(40), WGMMA_ACC8(48), WGMMA_ACC8(56), WGMMA_ACC8(64), WGMMA_ACC8(72),            \
        WGMMA_ACC8(80), WGMMA_ACC8(88)                                                             \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma<192, __half>(float (&acc)[96], unsigned long long desc_a,
                                                   unsigned long long desc_b, int scale_d) {
  WGMMA_192(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma<192, __nv_bfloat16>(float (&acc)[96],
                                                          unsigned long long desc_a,
                                                          unsigned long long desc_b, int scale_d) {
  WGMMA_192(".bf16.bf16");
}
#define WGMMA_64(TYPES)                                                                            \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32" TYPES " {"                                      \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15) ", "            \
      WGMMA_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGMMA_R8(24, 25, 26, 27, 28, 29, 30, 31)       \
      "}, %32, %33, p, 1, 1, 0, 1;\n}\n"                                                           \
      : WGMMA_ACC8(0), WGMMA_ACC8(8), WGMMA_ACC8(16), WGMMA_ACC8(24)                               \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma<64, __half>(float (&acc)[32], unsigned long long desc_a,
                                                  unsigned long long desc_b, int scale_d) {
  WGMMA_64(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma<64, __nv_bfloat16>(float (&acc)[32],
                                                         unsigned long long desc_a,
                                                         unsigned long long desc_b, int scale_d) {
  WGMMA_64(".bf16.bf16");
}

// The transposed product's wgmma: A (64 x 16) MN-major (trans-a = 1: B^T's tile, read as B's
// rows), B (16 x BN) K-major (trans-b = 0: A^T's tile, read as A's rows).
template <int BN, class T>
__device__ __forceinline__ void wgmma_t(float (&acc)[BN / 2], unsigned long long desc_a,
                                        unsigned long long desc_b, int scale_d);
#define WGMMA_T64(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n64k16.f32" TYPES " {"                                      \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15) ", "            \
      WGMMA_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGMMA_R8(24, 25, 26, 27, 28, 29, 30, 31)       \
      "}, %32, %33, p, 1, 1, 1, 0;\n}\n"                                                           \
      : WGMMA_ACC8(0), WGMMA_ACC8(8), WGMMA_ACC8(16), WGMMA_ACC8(24)                               \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma_t<64, __half>(float (&acc)[32], unsigned long long desc_a,
                                                    unsigned long long desc_b, int scale_d) {
  WGMMA_T64(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma_t<64, __nv_bfloat16>(float (&acc)[32],
                                                           unsigned long long desc_a,
                                                           unsigned long long desc_b, int scale_d) {
  WGMMA_T64(".bf16.bf16");
}
#define WGMMA_T32(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n32k16.f32" TYPES " {"                                      \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGMMA_R8(8, 9, 10, 11, 12, 13, 14, 15)                 \
      "}, %16, %17, p, 1, 1, 1, 0;\n}\n"                                                           \
      : WGMMA_ACC8(0), WGMMA_ACC8(8)                                                               \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma_t<32, __half>(float (&acc)[16], unsigned long long desc_a,
                                                    unsigned long long desc_b, int scale_d) {
  WGMMA_T32(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma_t<32, __nv_bfloat16>(float (&acc)[16],
                                                           unsigned long long desc_a,
                                                           unsigned long long desc_b, int scale_d) {
  WGMMA_T32(".bf16.bf16");
}
#define WGMMA_T16(TYPES)                                                                           \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"                                                 \
      "wgmma.mma_async.sync.aligned.m64n16k16.f32" TYPES " {"                                      \
      WGMMA_R8(0, 1, 2, 3, 4, 5, 6, 7)                                                             \
      "}, %8, %9, p, 1, 1, 1, 0;\n}\n"                                                             \
      : WGMMA_ACC8(0)                                                                              \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma_t<16, __half>(float (&acc)[8], unsigned long long desc_a,
                                                    unsigned long long desc_b, int scale_d) {
  WGMMA_T16(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma_t<16, __nv_bfloat16>(float (&acc)[8],
                                                           unsigned long long desc_a,
                                                           unsigned long long desc_b, int scale_d) {
  WGMMA_T16(".bf16.bf16");
}
#define WGMMA_T8(TYPES)                                                                            \
  asm volatile(                                                                                    \
      "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"                                                  \
      "wgmma.mma_async.sync.aligned.m64n8k16.f32" TYPES " {%0, %1, %2, %3}, "                      \
      "%4, %5, p, 1, 1, 1, 0;\n}\n"                                                                \
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])                                     \
      : "l"(desc_a), "l"(desc_b), "r"(scale_d))
template <>
__device__ __forceinline__ void wgmma_t<8, __half>(float (&acc)[4], unsigned long long desc_a,
                                                   unsigned long long desc_b, int scale_d) {
  WGMMA_T8(".f16.f16");
}
template <>
__device__ __forceinline__ void wgmma_t<8, __nv_bfloat16>(float (&acc)[4],
                                                          unsigned long long desc_a,
                                                          unsigned long long desc_b, int scale_d) {
  WGMMA_T8(".bf16.bf16");
}

// A cluster's tile: its blocks' tiles stacked (they share the B tile) or, side, side by side
// (they share the A tile). The rows and columns of cluster tiles that cover rows x cols.
__host__ __device__ inline void cluster_tiles(int rows, int cols, int tm, int bn, int cluster,
                                              bool side, int& unit_rows, int& unit_cols) {
  const int r = gemm::ceil_div(rows, tm), c = gemm::ceil_div(cols, bn);
  unit_rows = side ? r : gemm::ceil_div(r, cluster);
  unit_cols = side ? gemm::ceil_div(c, cluster) : c;
}

// The order in which blocks take tiles: GROUP rows of (cluster) tiles at a time, down the
// columns, so that the tiles in flight share rows of A and columns of B in L2. 0: row by row.
template <int GROUP>
__device__ __forceinline__ void tile_of(int unit, int unit_rows, int cols, int& row, int& col) {
  if (GROUP == 0) {
    row = unit / cols;
    col = unit % cols;
    return;
  }
  const int per_group = GROUP * cols, first = unit / per_group * GROUP;
  const int rows = min(unit_rows - first, GROUP), in_group = unit % per_group;
  row = first + in_group % rows;
  col = in_group / rows;
}

// Who computes what. Tiles below dp_tiles are taken whole, tile u by cluster u % clusters (as in
// 16). The k-tiles of the other tiles are laid end to end, tile after tile, and cut into equal
// ranges, one for each of the first `ranges` clusters. A piece: k-tiles [k0, k1) of one tile. A
// cluster takes its range's pieces from the last to the first: the start of a tile, which goes
// into C first, comes first; the end of a tile, which waits for the pieces before it, last.
// Every count fits an int: tiles x kt is about M N K / 2^22, and M N K < 2^47 (each matrix has
// fewer than 2^31 elements).
struct Schedule {
  int dp_tiles, kt, clusters;  // kt: k-tiles per tile
  int ranges, share, extra;    // ranges for the first clusters: share k-tiles, one more for `extra`
  __host__ __device__ int begin(int c) const {  // cluster c's first k-tile; c = clusters: the end
    return dp_tiles * kt + min(c, ranges) * share + min(c, extra);
  }
  // Piece i of cluster c: false when the cluster has no more.
  __host__ __device__ bool piece(int c, int i, int& tile, int& k0, int& k1) const {
    const int whole = (dp_tiles - c + clusters - 1) / clusters;
    if (i < whole) {
      tile = c + i * clusters, k0 = 0, k1 = kt;
      return true;
    }
    const int b = begin(c), e = begin(c + 1);
    tile = (e - 1) / kt - (i - whole);
    if (b >= e || tile < b / kt) return false;
    k0 = max(b - tile * kt, 0);
    k1 = min(e - tile * kt, kt);
    return true;
  }
};

// A flag per cut tile and consumer warpgroup counts its pieces in C. A piece waits only for
// clusters of lower index, which the GPU started no later than its own, so the wait ends even
// when not every cluster is on the GPU at once.
__device__ __forceinline__ void flag_raise(int* flag, int value) {
  // The fences: C's stores (TMA's, in the async proxy) before the flag, at GPU scope.
  asm volatile("fence.proxy.async.global;\nfence.acq_rel.gpu;\nst.relaxed.gpu.global.b32 [%0], %1;"
               ::"l"(flag), "r"(value) : "memory");
}
__device__ __forceinline__ void flag_wait(const int* flag, int value) {
  int now = 0;
  do asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(now) : "l"(flag) : "memory");
  while (now < value);
  asm volatile("fence.proxy.async.global;" ::: "memory");  // C before the TMA unit's adds
}

// Cluster blockIdx.x / CLUSTER takes its pieces of the schedule one after the other. The CLUSTER
// blocks of a cluster take vertically adjacent tiles and each copies 1 / CLUSTER of the B tile
// they share into all of them (SIDE: horizontally adjacent tiles, sharing the A tile). flags: one
// per consumer warpgroup of each tile after dp_tiles, zero at the start. TMA_STORE: C goes out
// through shared memory and the TMA unit where it can (store_c), else (ROWS) row by row, each
// warp its own rows, or straight from the registers (a later piece adds with atomics); pairs: C
// 8-byte aligned, for the straight path.
// SWAP: the product is C^T = B^T A^T (M and N are C^T's: C's N and M): map_a is B's, map_b A's,
// and C leaves transposed, straight from the registers.
template <int BN, int STAGES, int CLUSTER, int GROUP, bool WAIT_PREVIOUS, bool RELEASE_CLUSTER,
          bool TMA_STORE, int DEFER, bool SWAP, bool ROWS, class T = __half, int TM = BM,
          bool SIDE = false>
__global__ void __launch_bounds__(threads(TM), 1)
    gemm_kernel(int M, int N, int K, Schedule sched, int* flags, float alpha, bool add_c, float* C,
                bool store_c, bool pairs, const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_c) {
#ifdef HAS_SM90A
  static_assert(!SWAP || (!TMA_STORE && DEFER == 0), "C^T leaves straight from the registers");
  static_assert(!SWAP || TM <= BM, "C^T's tiles have 64 or 128 rows");
  constexpr int CONSUMERS = TM / 64, A_BYTES = TM * BK * 2, B_BYTES = BK * BN * 2;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  // A stage: TM rows of 128 bytes (64 k). B stage: BN / 64 boxes of BK rows (k) x 128 bytes (n).
  unsigned char* As = smem;
  unsigned char* Bs = smem + STAGES * A_BYTES;
  // TMA_STORE: per consumer warpgroup two C buffers of 64 x 32 floats (rows 128-byte swizzled).
  unsigned char* Cs = Bs + STAGES * B_BYTES;
  // full[s]: landed
  const unsigned full = smem_u32(Cs + (TMA_STORE ? CONSUMERS * c_bufs(TM) * C_BUF_BYTES : 0));
  const unsigned empty = full + STAGES * 8;  // empty[s]: every consumer is done with the stage
  const int wg = threadIdx.x / 128, wg_tid = threadIdx.x % 128;
  const unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;

  int unit_rows, unit_cols;
  cluster_tiles(M, N, TM, BN, CLUSTER, SIDE, unit_rows, unit_cols);
  const int cluster = blockIdx.x / CLUSTER, kt = sched.kt;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(full + 8 * s, 1);             // the producer's arrival (plus the bytes)
      mbar_init(empty + 8 * s, CONSUMERS * CLUSTER);  // each consumer warpgroup of each block
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  // The barriers must exist before any block of the cluster copies or arrives on them.
  if (CLUSTER > 1)
    cluster_sync();
  else
    __syncthreads();

  if (wg == 0) {  // producer: one thread issues every copy
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(PRODUCER_REGS));
    if (wg_tid == 0) {
      int it = 0;  // k-tiles issued by this block so far: stage it % STAGES, round it / STAGES
      for (int i = 0, tile, k0, k1; sched.piece(cluster, i, tile, k0, k1); ++i) {
        int row, col;
        tile_of<GROUP>(tile, unit_rows, unit_cols, row, col);
        row = (SIDE ? row : row * CLUSTER + rank) * TM;
        col = (SIDE ? col * CLUSTER + rank : col) * BN;
        for (int kb = k0; kb < k1; ++kb, ++it) {
          const int s = it % STAGES, k = kb * BK;
          // Round r = it / STAGES of stage s may start once round r - 1 was released: the
          // empty barrier's phase r - 1, whose parity is (r - 1) & 1 = (r + 1) & 1.
          if (it >= STAGES) mbar_wait(empty + 8 * s, (it / STAGES + 1) & 1);
          mbar_expect_bytes(full + 8 * s, A_BYTES + B_BYTES);
          // The A tile: TM rows, one box (SIDE: one of TM / CLUSTER rows per block). SWAP: B^T's
          // tile, TM of B's columns over 64 rows of k, in 64-column boxes. SIDE: the blocks
          // side by side share it, each copying its part into all of them.
          constexpr int a_boxes = SWAP ? TM / 64 : SIDE ? CLUSTER : 1, a_box = A_BYTES / a_boxes;
          for (int b = SIDE ? rank * a_boxes / CLUSTER : 0;
               b < (SIDE ? (rank + 1) * a_boxes / CLUSTER : a_boxes); ++b) {
            const unsigned dst = smem_u32(As + s * A_BYTES + b * a_box);
            const int c0 = SWAP ? row + 64 * b : k, c1 = SWAP ? k : row + b * (TM / a_boxes);
            if (SIDE)
              tma_load_multicast(dst, &map_a, c0, c1, full + 8 * s, (1 << CLUSTER) - 1);
            else
              tma_load(dst, &map_a, c0, c1, full + 8 * s);
          }
          // The B tile's 64-column boxes, shared out among the stacked blocks (192 columns: 1 and
          // 2, 64: none and 1; SIDE: each block its own). SWAP: A^T's tile, BN of A's rows by 64
          // k, is one box.
          constexpr int boxes = SWAP ? 1 : BN / 64, parts = SIDE ? 1 : CLUSTER;
          const int part = SIDE ? 0 : rank;
          for (int b = part * boxes / parts; b < (part + 1) * boxes / parts; ++b) {
            const unsigned dst = smem_u32(Bs + s * B_BYTES + b * BK * 128);
            const int c0 = SWAP ? k : col + 64 * b, c1 = SWAP ? col : k;
            if (CLUSTER > 1 && !SIDE)
              tma_load_multicast(dst, &map_b, c0, c1, full + 8 * s, (1 << CLUSTER) - 1);
            else
              tma_load(dst, &map_b, c0, c1, full + 8 * s);
          }
        }
      }
    }
    __syncwarp();  // lanes 1-31 wait for lane 0: the warp meets the .aligned cluster barrier whole
  } else {         // consumers: warpgroup w rows 64 (w - 1) to 64 w - 1 of the tile
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(consumer_regs(TM)));
    float acc[BN / 2];
    int it = 0;
    const int warp_id = wg_tid / 32, lane_id = wg_tid % 32;  // in the warpgroup
    const unsigned bufs = smem_u32(Cs + (wg - 1) * c_bufs(TM) * C_BUF_BYTES);
    // Where TMA cannot write C (rows not 16-byte aligned), the warpgroup writes or adds the
    // buffer's rows itself: each warp its own 16 rows, a row's 32 floats one per lane, one
    // coalesced 128-byte store (from the registers a warp's store would cover 8 rows in pieces).
    auto store_rows = [&](unsigned buf, int c0, int r0, bool add) {
      const int c = c0 + lane_id;
#pragma unroll 4
      for (int i = 0; i < 16; ++i) {
        const int row = warp_id * 16 + i, r = r0 + row;
        float v;
        asm volatile("ld.shared.f32 %0, [%1];"
                     : "=f"(v)
                     : "r"(buf + row * 128 + (((lane_id / 4) ^ (row % 8)) * 16) +
                           (lane_id % 4) * 4));
        if (r >= M || c >= N) continue;
        float* out = C + std::size_t(r) * N + c;
        if (add)
          atomicAdd(out, v);
        else
          *out = v;
      }
    };
    // Chunk q of C, 32 columns (v: this thread's 16 sums of them, times alpha), goes to buffer
    // q % c_bufs once the TMA unit has read what it held, and one thread hands it to the TMA unit
    // (or each warp writes its rows). Every tile's chunks take the buffers in turn, so the store
    // c_bufs before this one used it.
    auto put = [&](int q, const float* v, int c0, int r0, bool add) {
      const unsigned buf = bufs + (q % c_bufs(TM)) * C_BUF_BYTES;
      if (store_c) {
        if (wg_tid == 0) tma_store_wait_read<c_bufs(TM) - 1>();
        warpgroup_sync(wg);
      } else {
        __syncwarp();  // row by row: each warp reads back only the rows it writes
      }
#pragma unroll
      for (int jj = 0; jj < C_CHUNK / 8; ++jj)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          // Row r of the buffer holds 8 chunks of 16 bytes; chunk x sits at x ^ (r % 8), the
          // TMA unit's 128-byte swizzle: a warp's 8 rows cover all banks twice. The GPU serves
          // 8-byte stores half a warp at a time, whose 4 rows meet 2 by 2: 2-way conflicts,
          // which cost no time here (16's README, Measured).
          const int r = warp_id * 16 + 8 * h + lane_id / 4, x = 2 * jj + (lane_id % 4) / 2;
          const unsigned at = buf + r * 128 + ((x ^ (r % 8)) * 16) + (lane_id % 2) * 8;
          asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at), "f"(alpha * v[4 * jj + 2 * h]),
                       "f"(alpha * v[4 * jj + 2 * h + 1]));
        }
      if (!store_c) {
        __syncwarp();
        store_rows(buf, c0 + q * C_CHUNK, r0, add);
        return;
      }
      // Generic-proxy writes that the TMA unit (async proxy) reads need this fence.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      warpgroup_sync(wg);
      if (wg_tid == 0 && add) tma_add(&map_c, buf, c0 + q * C_CHUNK, r0);
      if (wg_tid == 0 && !add) tma_store(&map_c, buf, c0 + q * C_CHUNK, r0);
    };
    // The previous tile's last DEFER chunks wait for the next piece's k-loop: chunk KEPT + d is
    // later[16 d .. 16 d + 15], and `sent` of them are out.
    constexpr int CHUNKS = BN / C_CHUNK, KEPT = CHUNKS - DEFER;
    static_assert(KEPT >= 0, "a tile defers at most all of its chunks");
    float later[DEFER > 0 ? DEFER * 16 : 1];
    int later_c0 = 0, later_r0 = 0, sent = DEFER;
    bool later_add = false;
    // Frees a stage: one thread per consumer warpgroup arrives on it in every block of the cluster.
    auto release = [&](int s) {
      if (CLUSTER == 1 && !RELEASE_CLUSTER && wg_tid == 0) mbar_arrive(empty + 8 * s);
      if ((CLUSTER > 1 || RELEASE_CLUSTER) && wg_tid < CLUSTER)
        mbar_arrive_cluster<RELEASE_CLUSTER>(empty + 8 * s, wg_tid);
    };
    auto put_later = [&](bool all) {  // the next chunk waiting, or all that are left
#pragma unroll
      for (int d = 0; d < DEFER; ++d)
        if (d >= sent && (all || d == sent))
          put(KEPT + d, later + 16 * d, later_c0, later_r0, later_add);
      sent = all ? DEFER : sent + 1;
    };
    for (int i = 0, tile, k0, k1; sched.piece(cluster, i, tile, k0, k1); ++i) {
      int row, col;
      tile_of<GROUP>(tile, unit_rows, unit_cols, row, col);
      row = (SIDE ? row : row * CLUSTER + rank) * TM;
      col = (SIDE ? col * CLUSTER + rank : col) * BN;
      for (int kb = k0; kb < k1; ++kb, ++it) {
        const int s = it % STAGES;
        mbar_wait(full + 8 * s, (it / STAGES) & 1);
        const unsigned a = smem_u32(As + s * A_BYTES + (wg - 1) * 64 * 128);
        const unsigned b = smem_u32(Bs + s * B_BYTES);
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; ++kk) {
          // A, K-major: 16 k = 32 bytes along the swizzled 128-byte row; 8-row groups 1024 B
          // apart (stride; the leading offset is unused for a swizzled K-major operand). B,
          // MN-major: 16 k = 16 rows of 128 bytes; 8-row groups 1024 B apart (stride), 64-column
          // boxes BK * 128 B apart (leading). The stages are 1024-byte aligned, so the swizzle
          // pattern starts at each stage and a start moved along the row stays in step with it.
          // SWAP: the warpgroup's 64 rows of B^T are its box of B (64 columns by 64 k, 128-byte
          // rows, MN-major); A^T's tile is A's rows, K-major: the descriptors trade places.
          if constexpr (SWAP)
            wgmma_t<BN, T>(acc, smem_desc(a + kk * 16 * 128, BK * 128, 1024),
                           smem_desc(b + kk * 32, 16, 1024), kb > k0 || kk > 0);
          else
            wgmma<BN, T>(acc, smem_desc(a + kk * 32, 16, 1024),
                         smem_desc(b + kk * 16 * 128, BK * 128, 1024), kb > k0 || kk > 0);
        }
        wgmma_commit();
        if (WAIT_PREVIOUS) {  // keep this k-tile's wgmmas running; the previous one's are done
          wgmma_wait<1>();
          if (kb > k0) release((it - 1) % STAGES);
        } else {
          wgmma_wait<0>();
          release(s);
        }
        // A chunk of the previous tile every other k-tile: the TMA unit writes it while the
        // tensor pipe works.
        if (sent < DEFER && (kb - k0) % 2 == 1) put_later(false);
      }
      if (WAIT_PREVIOUS) {
        wgmma_wait<0>();
        release((it - 1) % STAGES);
      }
      if (sent < DEFER) put_later(true);  // a short piece: the buffers are needed now

      // A tile cut between clusters goes into C piece by piece, in the order of its k-tiles: the
      // first piece stores alpha * sums (add_c: adds them to beta * C), each later one waits until
      // the pieces before it are in C and adds its own. The flag counts the pieces in C.
      const bool add = k0 > 0, into = add || add_c;
      int* flag = flags + ((tile - sched.dp_tiles) * CLUSTER + rank) * CONSUMERS + wg - 1;
      int before = 0;  // pieces of this tile before this one: one per cluster since the first
      if (add) {
        while (sched.begin(cluster - before) > tile * kt) ++before;
        if (wg_tid == 0) flag_wait(flag, before);
        warpgroup_sync(wg);
      }
      // Tells the next piece that this one is in C: once every store has completed.
      auto done = [&] {
        if (TMA_STORE && store_c) {
          if (wg_tid == 0) tma_store_wait_all();
        } else {
          warpgroup_sync(wg);
        }
        if (wg_tid == 0) flag_raise(flag, before + 1);
      };

      // Through the buffers 32 columns at a time, stored or added by the TMA unit or row by row.
      if (TMA_STORE && (store_c || ROWS)) {
        // A piece that ends its tile keeps its last DEFER chunks for the next piece's k-loop;
        // one that does not must have all of it in C before its flag rises.
        const bool park = DEFER > 0 && k1 == kt;
        const int r0 = row + (wg - 1) * 64;
        if (park) {  // first, so that their registers are free for the stores below
#pragma unroll
          for (int e = 0; e < DEFER * 16; ++e) later[e] = acc[16 * KEPT + e];
        }
#pragma unroll
        for (int q = 0; q < CHUNKS; ++q)
          if (!park || q < KEPT) put(q, acc + 16 * q, col, r0, into);
        if (park) sent = 0, later_c0 = col, later_r0 = r0, later_add = into;
        if (k1 < kt) done();
        continue;
      }
      // Epilogue straight from the accumulators: each lane holds column pairs of two rows. SWAP:
      // element (r, c) of C^T is C's (c, r), and the pair's second lies a row of C further.
      const int r0 = row + (wg - 1) * 64 + warp_id * 16 + lane_id / 4, c0 = col + 2 * (lane_id % 4);
      const std::size_t step = SWAP ? M : 1;
#pragma unroll
      for (int j = 0; j < BN / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = r0 + 8 * h, c = c0 + 8 * j;
          if (r >= M || c >= N) continue;
          float* out = C + (SWAP ? std::size_t(c) * M + r : std::size_t(r) * N + c);
          const float v0 = alpha * acc[4 * j + 2 * h], v1 = alpha * acc[4 * j + 2 * h + 1];
          if (into) {  // C holds beta * C or the pieces before this one: add this one's part
            atomicAdd(out, v0);
            if (c + 1 < N) atomicAdd(out + step, v1);
          } else if (pairs) {  // N even and C 8-byte aligned: one 8-byte store
            *reinterpret_cast<float2*>(out) = make_float2(v0, v1);
          } else {
            out[0] = v0;
            if (c + 1 < N) out[step] = v1;
          }
        }
      if (k1 < kt) done();
    }
    if (sent < DEFER) put_later(true);  // the last tile's
    // Shared memory must outlive the stores: wait until the TMA unit has read the last buffers.
    if (TMA_STORE && wg_tid == 0) tma_store_wait_read<0>();
  }
  // No block may leave while a peer can still copy into its shared memory or arrive on its
  // barriers.
  if (CLUSTER > 1) cluster_sync();
#endif
}

// ---- staging: A or B copied where TMA cannot read them, at copy speed -------------------------
// The 16-byte window of halves that starts s bytes (even, 0-14) into a:b, word by word.
template <int Q>
__device__ __forceinline__ uint4 window(const unsigned (&x)[8], unsigned bits) {
  return make_uint4(__funnelshift_r(x[Q], x[Q + 1], bits),
                    __funnelshift_r(x[Q + 1], x[Q + 2], bits),
                    __funnelshift_r(x[Q + 2], x[Q + 3], bits),
                    __funnelshift_r(x[Q + 3], x[Q + 4], bits));
}
__device__ __forceinline__ uint4 shifted(uint4 a, uint4 b, unsigned s) {
  const unsigned x[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}, bits = 8 * (s % 4);
  switch (s / 4) {  // constant indices: x stays in registers
    case 0: return window<0>(x, bits);
    case 1: return window<1>(x, bits);
    case 2: return window<2>(x, bits);
    default: return window<3>(x, bits);
  }
}

// rows x cols halves into rows of `pitch` (a multiple of 8): one 16-byte chunk of the copy per
// thread. Its 8 halves start anywhere in the source (2-byte aligned), so the thread reads the two
// aligned 16-byte words that hold them (its neighbours read the same ones: L1 serves them) and
// shifts them into place. Past a row's end the chunk holds the next row's first halves, which TMA
// never reads (the tensor map is cols wide); only the matrix's last chunks go half by half.
// T: __half or __nv_bfloat16; the copy moves 2-byte elements whatever their format.
template <class T>
__global__ void __launch_bounds__(256) stage_kernel(T* dst, long long pitch, const T* src,
                                                    int rows, int cols) {
  const long long chunks = pitch / 8, total = rows * chunks;
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(src + 1LL * rows * cols);
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < total; i += gridDim.x * 256LL) {
    const long long r = i / chunks, c = i % chunks * 8;
    const T* from = src + r * cols + c;
    const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(from);
    const std::uintptr_t base = at & ~std::uintptr_t(15);
    uint4 out;
    // The first word may start up to 14 bytes before src: inside its 16-byte word, which the
    // allocation (at least 16-byte aligned) holds. The second must not pass the end.
    if (base + 32 <= end) {
      const uint4* w = reinterpret_cast<const uint4*>(base);
      out = shifted(__ldg(w), __ldg(w + 1), unsigned(at - base));
    } else {
      alignas(16) T h[8];
      for (int e = 0; e < 8; ++e) h[e] = at + 2 * e < end ? from[e] : T(0.0f);
      out = *reinterpret_cast<const uint4*>(h);
    }
    *reinterpret_cast<uint4*>(dst + r * pitch + c) = out;
  }
}
template <class T>
cudaError_t stage(T* dst, long long pitch, const T* src, int rows, int cols, cudaStream_t stream) {
  const long long total = rows * (pitch / 8);
  const int blocks = int(std::min<long long>((total + 255) / 256, 4096LL));
  stage_kernel<<<blocks, 256, 0, stream>>>(dst, pitch, src, rows, cols);
  return cudaGetLastError();
}
// Defined here for both input types, so that a test can link them from this file's object.
template cudaError_t stage(__half*, long long, const __half*, int, int, cudaStream_t);
template cudaError_t stage(__nv_bfloat16*, long long, const __nv_bfloat16*, int, int,
                           cudaStream_t);

// C = beta * C at copy speed, 16 bytes a thread (the harness's gemm::scale_c moves 4; C is
// 16-byte aligned wherever the TMA unit adds into it): the pass that beta not 1 costs.
__global__ void scale4_kernel(long long n4, float beta, float4* C) {
  const long long stride = 1LL * gridDim.x * blockDim.x;
  for (long long i = blockIdx.x * 1LL * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = C[i];
    v.x *= beta, v.y *= beta, v.z *= beta, v.w *= beta;
    C[i] = v;
  }
}
inline cudaError_t scale_c(long long count, float beta, float* C, int sms, cudaStream_t stream) {
  if (beta == 1.0f) return cudaSuccess;
  if (reinterpret_cast<std::uintptr_t>(C) % 16) return gemm::scale_c(count, beta, C, stream);
  const long long n4 = count / 4, blocks = std::min((n4 + 255) / 256, 32LL * sms);
  if (n4 > 0)
    scale4_kernel<<<unsigned(blocks), 256, 0, stream>>>(n4, beta, reinterpret_cast<float4*>(C));
  if (cudaError_t err = cudaGetLastError()) return err;
  return gemm::scale_c(count % 4, beta, C + 4 * n4, stream);  // the last 0-3
}

// Whether stream-K shares out the last round of `tiles` tiles of kt k-tiles among `fit` clusters:
// where that saves each cluster more than MIN_GAIN k-tiles.
inline bool shares_out(int tiles, int kt, int fit) {
  const int idle = gemm::ceil_div(tiles, fit) * fit - tiles;
  return 1LL * idle * kt > 1LL * MIN_GAIN * fit;
}

// PERSISTENT: as many clusters as fit on the GPU, each taking its pieces of the schedule;
// otherwise one cluster per tile. TMA_STORE: C through shared memory, then the TMA unit where it
// can (C 16-byte aligned rows), else (ROWS) coalesced rows; otherwise straight from the
// registers; where beta is not 0, C = beta * C first and every piece adds its product. STAGE: A
// or B that TMA cannot read is copied by stage_kernel (else by cudaMemcpy2DAsync). STREAM_K: the
// last round of tiles shared out by k-tiles where that saves each cluster more than MIN_GAIN
// k-tiles. SIDE: a cluster's blocks take tiles side by side and share the A tile.
// T, the input type: __half or __nv_bfloat16 (from A and B).
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true,
          bool STREAM_K = true, int DEFER = std::min(DEFERRED, BN / C_CHUNK), bool SWAP = false,
          bool STAGE = true, bool ROWS = true, class T = __half, int TM = BM, bool SIDE = false>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const gemm::Hopper* gpu = nullptr;
  if (cudaError_t err = gemm::hopper(gpu, info)) return err;
  if (K == 0) return gemm::scale_c(1LL * M * N, beta, C, stream);  // C = beta * C
  auto kernel = gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE,
                            DEFER, SWAP, ROWS, T, TM, SIDE>;
  constexpr std::size_t smem = smem_bytes<BN, STAGES, TMA_STORE, TM>();
  int fit = 0;
  if (cudaError_t err = gemm::clusters_that_fit(kernel, CLUSTER, threads(TM), smem, gpu->sms, fit))
    return err;
  const int rows = SWAP ? N : M, cols = SWAP ? M : N;  // of the product the kernel computes
  int unit_rows, unit_cols;
  cluster_tiles(rows, cols, TM, BN, CLUSTER, SIDE, unit_rows, unit_cols);
  const int tiles = unit_rows * unit_cols;
  const int kt = gemm::ceil_div(K, BK);
  const bool stream_k = STREAM_K && PERSISTENT && shares_out(tiles, kt, fit);
  Schedule sched{tiles, kt, PERSISTENT ? std::min(tiles, fit) : tiles, 0, 0, 0};
  if (stream_k) {  // whole tiles for every full round
    sched.dp_tiles = tiles / fit * fit;
    // The k-tiles shared out, in ranges of at least a quarter of a tile: a tile has at most 5
    // pieces, which go into C one after another.
    const int ks = (tiles - sched.dp_tiles) * kt;
    sched.ranges = std::min(fit, std::max(1, ks / gemm::ceil_div(kt, 4)));
    // SWAP: fewer tiles than clusters (the shapes it is for): two ranges a tile where they fit,
    // not ranges of a quarter tile: more pieces lengthened the chain of additions by more than
    // they filled the GPU (README, measured). Equal ranges drift across the tiles' edges when a
    // tile's k-tiles are odd, so a tile can have three pieces.
    if (SWAP && tiles < fit) sched.ranges = tiles * std::min(2, fit / tiles);
    sched.clusters = sched.dp_tiles > 0 ? fit : sched.ranges;
    sched.share = ks / sched.ranges, sched.extra = ks % sched.ranges;
  }
  gemm::TmaInputs<T> in;  // copied into aligned scratch first where TMA cannot read them
  // SWAP: A's boxes are A^T's tiles, BN of its rows; SIDE: a block's part of the A tile.
  if (cudaError_t err = in.prepare(*gpu, A, B, M, N, K, SWAP ? BN : SIDE ? TM / CLUSTER : TM, BK,
                                   stream, info, STAGE ? stage<T> : nullptr))
    return err;
  // The flags of the tiles shared out, taken on the stream.
  int* flags = nullptr;
  cudaError_t err = cudaSuccess;
  if (stream_k) {
    const std::size_t bytes =
        std::size_t(tiles - sched.dp_tiles) * CLUSTER * (TM / 64) * sizeof(int);
    if (cudaMallocAsync(&flags, bytes, stream)) {
      cudaGetLastError();  // not sticky; clear it for the caller
      gemm::reject(info, "no GPU memory for stream-K's flags (%zu bytes)", bytes);
      in.release(stream, cudaSuccess);
      return cudaErrorMemoryAllocation;
    }
    err = cudaMemsetAsync(flags, 0, bytes, stream);
  }
  if (info) {  // the most clusters that share one tile
    info->k_splits = 1;
    for (int c = 0, last = -1, run = 0; stream_k && c < sched.clusters; ++c) {
      const int b = sched.begin(c), e = sched.begin(c + 1);
      if (b == e) continue;
      run = b / kt == last ? run + 1 : 1;
      info->k_splits = std::max(info->k_splits, run);
      if ((e - 1) / kt != b / kt) run = 1;
      last = (e - 1) / kt;
    }
  }
  CUtensorMap map_c = {};
  const bool store_c = TMA_STORE && gemm::c_tensor_map(*gpu, map_c, C, M, N, 64);
  const bool pairs = !SWAP && N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  // beta not 0: C = beta * C by a pass over C (none for beta 1), then the kernel adds alpha times
  // the product, the TMA unit in L2 where it can write C: no load of old C in the epilogue.
  const bool add_c = beta != 0.0f;
  if (!err && add_c) err = scale_c(1LL * M * N, beta, C, gpu->sms, stream);
  if (!err)
    err = gemm::launch_clusters(kernel, unsigned(sched.clusters * CLUSTER), CLUSTER, threads(TM), smem,
                                stream, rows, cols, K, sched, flags, alpha, add_c, C, store_c, pairs,
                                SWAP ? in.b : in.a, SWAP ? in.a : in.b, map_c);
  if (info) {  // the kernel that ran, for the report
    info->kernel = reinterpret_cast<const void*>(kernel);
    info->kernel_threads = threads(TM), info->kernel_smem = smem;
  }
  if (info && !err) {  // this chapter's two paths, where they ran
    const auto add = [&](const char* what) {
      info->note += (info->note.empty() ? "" : "; ") + std::string(what);
    };
    if (STAGE && (in.a_op.scratch || in.b_op.scratch)) add("copied by stage_kernel");
    if (TMA_STORE && ROWS && !store_c) add("C's rows written whole from shared memory");
    if (add_c) add(beta == 1.0f ? "the product added to C" : "C scaled by beta, the product added");
  }
  const cudaError_t freed = flags ? cudaFreeAsync(flags, stream) : cudaSuccess;
  return in.release(stream, err ? err : freed);
}

// The tiles the launcher chooses from (rows x columns), and what one k-tile of each costs with
// every SM busy, relative to 128 x 256 (measured at 4096^3: README). Narrow tiles cost more than
// their share: each of their k-tiles reads as much of A, for fewer columns of B.
constexpr int HEIGHTS[] = {128, 128, 128, 128, 192};
constexpr int WIDTHS[] = {256, 192, 128, 64, 192};
constexpr double KTILE_COST[] = {1.0, 0.76, 0.63, 0.42, 1.106};
constexpr int SHAPES = 5;
// Where a row of A or B is an odd number of 16-byte units, most of a box's rows span two lines of
// L2 and a k-tile costs at least its bytes, relative to 128 x 256's: (rows + columns) / 384. At
// 3000^3 this takes 192 x 192 (2 rounds of tiles) over 128 x 192 (3 rounds): README.
constexpr bool rows_straddle(int N, int K) {
  return gemm::ceil_div(K, 8) % 2 == 1 || gemm::ceil_div(N, 8) % 2 == 1;
}
// Stream-K's last round costs its share of a round and more, 0.63-0.69 of a round (measured at
// 2304^3, 3000^3 and 5000^3: the pieces' additions into C wait for one another). Any value from
// 0.4 to 1.2 takes the same widths at every shape measured (README).
constexpr double STREAM_K_TAIL = 0.5;
// A narrower tile is taken only where it saves at least 5% (within that, the rule cannot tell).
constexpr double MARGIN = 0.95;

// The rounds of `tiles` tiles: a round gives each of `clusters` clusters one tile, and a
// part-empty one costs a whole round unless stream-K shares it out.
inline double rounds(int tiles, int kt, int clusters) {
  return shares_out(tiles, kt, clusters) ? double(tiles) / clusters + STREAM_K_TAIL
                                         : gemm::ceil_div(tiles, clusters);
}

// The tile whose rounds cost the least (its index in HEIGHTS and WIDTHS): the rounds of tiles
// times the cost of a k-tile. `clusters`: SMs / 2, what fits of every tile on the H200 (the
// launcher's stream-K asks the GPU, clusters_that_fit).
inline int tile_shape(int M, int N, int K, int clusters) {
  const int kt = gemm::ceil_div(K, BK);
  const bool straddle = rows_straddle(N, K);
  int best = 0;
  double least = 0;
  for (int w = 0; w < SHAPES; ++w) {
    const int tiles =
        gemm::ceil_div(gemm::ceil_div(M, HEIGHTS[w]), 2) * gemm::ceil_div(N, WIDTHS[w]);
    const double bytes = (HEIGHTS[w] + WIDTHS[w]) / 384.0;
    const double cost =
        rounds(tiles, kt, clusters) * (straddle ? std::max(KTILE_COST[w], bytes) : KTILE_COST[w]);
    if (w == 0 || cost < MARGIN * least) best = w, least = cost;
  }
  return best;
}

// Where the rows of both A and B straddle L2's lines, a k-tile of a cluster of four 128 x 256 tiles
// costs this much of a pair's (the B tile's requests shared four ways; 0.75-0.89 measured at five
// such shapes: README). Where only one of them straddles, four were slower at every shape measured.
constexpr double FOUR_KTILE_COST = 0.8;
constexpr bool both_straddle(int N, int K) {
  return gemm::ceil_div(K, 8) % 2 == 1 && gemm::ceil_div(N, 8) % 2 == 1;
}
// Whether 128 x 256 tiles go in clusters of four rather than pairs: rows of A and B that straddle
// lines, and fewer rounds, costed, on the `fours` clusters of four that fit (30 on the H200) than
// on `pairs`.
inline bool in_fours(int M, int N, int K, int pairs, int fours) {
  if (!both_straddle(N, K) || fours == 0) return false;
  const int kt = gemm::ceil_div(K, BK), rows = gemm::ceil_div(M, BM), cols = gemm::ceil_div(N, 256);
  return rounds(gemm::ceil_div(rows, 4) * cols, kt, fours) * FOUR_KTILE_COST <
         MARGIN * rounds(gemm::ceil_div(rows, 2) * cols, kt, pairs);
}

// Whether 128 x 64 tiles of C run in clusters of one with C from the registers: one round of them,
// each tile whole on its own SM (where stream-K would share them out, its pieces would add into C
// with atomics: slower, measured), and rows of A and B that do not straddle L2's lines (there the
// pairs' shared B tile saves requests that cost more, measured at 1000^3).
inline bool one_round(int M, int N, int K, int sms) {
  const long long tiles = 1LL * gemm::ceil_div(M, BM) * gemm::ceil_div(N, 64);
  return !rows_straddle(N, K) && tiles <= sms && !shares_out(int(tiles), gemm::ceil_div(K, BK), sms);
}

// The most rows of C that the entry point computes as C^T (a tile of C^T has at most 64 columns:
// two for 65-128 rows).
constexpr int SWAP_ROWS = 128;

// The entry points' launcher: C^T for a C of few rows (tiles of 64 rows where one round takes
// them all, else of 128 rows, side by side for 65-128), else 18's for the width the rule picks.
template <class T>
cudaError_t gemm_choose(int M, int N, int K, float alpha, const T* A, const T* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  int sms = 0;
  if (M > 0 && N > 0)
    if (cudaError_t err = gemm::sm_count(sms)) return err;
  const int shape = sms ? tile_shape(M, N, K, sms / 2) : 0;  // clusters of 2
  const int height = HEIGHTS[shape], width = WIDTHS[shape];
  cudaError_t err;
  // A C of at most SWAP_ROWS rows and more columns: C^T = B^T A^T, A's rows as the columns of
  // tiles 16, 32 or 64 wide (65-128 rows: two tiles of 64, which fill twice the clusters of one
  // of 128), with more stages for the narrower (the loads of B are the work).
  const int swap = M <= SWAP_ROWS && M < N ? (M <= 16 ? 16 : M <= 32 ? 32 : 64) : 0;
  // 65-128 rows: C^T's two tiles of 64 columns side by side, sharing B^T's tile (16 KB a k-tile)
  // rather than A^T's (8 KB). C's own tiles of 128 x 64 stay stacked: side by side they ran
  // slower (README).
  const bool side = swap == 64 && M > 64;
  // C^T's tiles of 64 rows, clusters of one, where one round of the GPU's blocks takes them all:
  // twice the tiles of 24's 128 rows, so that fewer are cut along K (README, measured).
  const bool short_tiles = swap && sms && gemm::ceil_div(N, 64) * gemm::ceil_div(M, swap) <= sms;
  // C's 128 x 256 tiles where the rows of A and B straddle L2's lines: in clusters of four where
  // their rounds, costed, come out below those of pairs (asked of the GPU: how many fours fit).
  int fours = 0;
  if (!swap && sms && height == BM && width == 256 && both_straddle(N, K))
    if ((err = gemm::clusters_that_fit(gemm_kernel<256, 4, 4, 8, true, false, true, DEFERRED,
                                                   false, true, T>,
                                       4, threads(BM), smem_bytes<256, 4, true>(), sms, fours)))
      return err;
  const bool four = fours && in_fours(M, N, K, sms / 2, fours);
  const bool alone = !swap && sms && width == 64 && one_round(M, N, K, sms);
  // C^T's tiles of 64 rows half as wide (8, 16 or 32 of C's rows) where C has more rows than the
  // half and the narrower tiles fill more than half the SMs and no more than all of them: each
  // whole, where half as many would be cut in two along K (README, measured).
  const int half = swap / 2;  // short_tiles: swap is 16, 32 or 64
  const int halves = short_tiles ? gemm::ceil_div(N, 64) * gemm::ceil_div(M, half) : 0;
  const bool narrow = short_tiles && M > half && M <= swap && 2 * halves > sms && halves <= sms;
  const int cols = narrow ? half : swap;  // C^T's tile width
  if (short_tiles && cols == 8)
    err = gemm_launch<8, 24, 1, true, 8, true, false, false, true, 0, true, true, true, T, 64>(
        M, N, K, alpha, A, B, beta, C, stream, info);
  else if (short_tiles && cols == 16)
    err = gemm_launch<16, 22, 1, true, 8, true, false, false, true, 0, true, true, true, T, 64>(
        M, N, K, alpha, A, B, beta, C, stream, info);
  else if (short_tiles && cols == 32)
    err = gemm_launch<32, 18, 1, true, 8, true, false, false, true, 0, true, true, true, T, 64>(
        M, N, K, alpha, A, B, beta, C, stream, info);
  else if (short_tiles)
    err = gemm_launch<64, 13, 1, true, 8, true, false, false, true, 0, true, true, true, T, 64>(
        M, N, K, alpha, A, B, beta, C, stream, info);
  else if (swap == 16)
    err = gemm_launch<16, 12, 2, true, 8, true, false, false, true, 0, true>(M, N, K, alpha, A, B,
                                                                             beta, C, stream, info);
  else if (swap == 32)
    err = gemm_launch<32, 10, 2, true, 8, true, false, false, true, 0, true>(M, N, K, alpha, A, B,
                                                                             beta, C, stream, info);
  else if (swap == 64 && side)
    err = gemm_launch<64, 8, 2, true, 8, true, false, false, true, 0, true, true, true, T, BM,
                      true>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (swap == 64)
    err = gemm_launch<64, 8, 2, true, 8, true, false, false, true, 0, true>(M, N, K, alpha, A, B,
                                                                            beta, C, stream, info);
  else if (height == 192)  // three consumer warpgroups
    err = gemm_launch<192, TALL_STAGES, 2, true, 8, true, false, true, true, TALL_DEFER, false, true,
                      true, T, 192>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (width == 256 && four)
    err = gemm_launch<256, 4, 4>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (width == 256)
    err = gemm_launch<256, 4>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (width == 192)
    err = gemm_launch<192, 4>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (width == 128)
    err = gemm_launch<128, 6>(M, N, K, alpha, A, B, beta, C, stream, info);
  else if (alone)  // no TMA store: no deferred chunks
    err = gemm_launch<64, 8, 1, true, 8, true, false, false, true, 0>(M, N, K, alpha, A, B, beta, C,
                                                                     stream, info);
  else
    err = gemm_launch<64, 8>(M, N, K, alpha, A, B, beta, C, stream, info);
  if (info && !err && sms && K > 0)
    info->note = (swap ? "C^T in tiles of " + std::to_string(short_tiles ? 64 : BM) + " x " +
                             std::to_string(cols)
                       : "tiles of " + std::to_string(height) + " x " + std::to_string(width)) +
                 (short_tiles ? ", clusters of one"
                  : alone      ? ", clusters of one, C from the registers"
                  : side       ? ", two side by side"
                  : four       ? ", clusters of four"
                               : "") +
                 (info->note.empty() ? "" : "; ") + info->note;
  return err;
}

// FP16 A and B, FP32 accumulators and C.
cudaError_t hgemm(int M, int N, int K, float alpha, const __half* A, const __half* B, float beta,
                  float* C, cudaStream_t stream) {
  return gemm_choose(M, N, K, alpha, A, B, beta, C, stream);
}

// BF16 A and B (FP32's exponent, 8 bits of mantissa), FP32 accumulators and C.
cudaError_t bgemm(int M, int N, int K, float alpha, const __nv_bfloat16* A,
                  const __nv_bfloat16* B, float beta, float* C, cudaStream_t stream) {
  return gemm_choose(M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace ch28
