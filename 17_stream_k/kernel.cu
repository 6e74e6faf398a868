// 17_stream_k: the last round of tiles shared out by k-tiles (sm_90a). 16's persistent clusters
// take whole tiles, so when the tiles do not divide among the clusters the last round leaves some
// idle. Here the full rounds still take whole tiles; the k-tiles of the last round's tiles are
// laid end to end and cut into one equal range per cluster (stream-K). The pieces of a tile cut
// between clusters go into C in k order: the first is stored, each later one waits for a flag and
// is added by the TMA unit (a reduction). It replaces split-K.
// What should move against 16: the last round, in which 16's tensor pipe is idle on the SMs that
// have no tile left (ncu: the spread of the tensor pipe's busy time between SMs).
// Host plumbing that is not the lesson (the sm_90a probe, tensor maps, aligned copies of A or B
// where TMA cannot read them, cluster launches) is in common/hopper.cuh.
#include "gemm_check.h"
#include "hopper.cuh"
#include "split_k.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

namespace ch17 {

constexpr int BM = 128;       // two consumer warpgroups of 64 rows each
constexpr int BK = 64;        // 64 halves = 128 bytes: one row of the 128-byte swizzle
constexpr int THREADS = 384;  // warpgroup 0 produces, warpgroups 1 and 2 consume
// setmaxnreg: the producer gives registers back, the consumers take them (40 + 2 x 232 = 504 of
// 512 per thread slot of a warpgroup triple: 128 x 40 + 256 x 232 = 64,512 of 65,536 registers).
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232;

// TMA_STORE: each consumer warpgroup stages C through two buffers of 64 rows x 32 columns.
constexpr int C_CHUNK = 32, C_BUF_BYTES = 64 * C_CHUNK * 4;
// Stream-K costs each cluster a second epilogue and a wait: it runs where sharing out the last
// round saves each cluster more than MIN_GAIN k-tiles (measured, README: it lost with 8 at 4096^3
// and 12 at 1024^3, and won with 28 at 2304^3).
constexpr int MIN_GAIN = 16;

template <int BN, int STAGES, bool TMA_STORE>
constexpr std::size_t smem_bytes() {
  // + 1024: the swizzle pattern repeats every 1024 bytes, so the tiles start 1024-aligned.
  return 1024 + std::size_t(STAGES) * (BM + BN) * BK * sizeof(__half) +
         (TMA_STORE ? 2 * 2 * C_BUF_BYTES : 0) + 2 * STAGES * 8;
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
// they share into all of them. flags: one per consumer warpgroup of each tile after dp_tiles, zero
// at the start. store_c: C goes out through shared memory and TMA (else straight from the
// registers; a later piece adds with atomics); pairs: C 8-byte aligned, for the straight path.
template <int BN, int STAGES, int CLUSTER, int GROUP, bool WAIT_PREVIOUS, bool RELEASE_CLUSTER,
          bool TMA_STORE, class T = __half>
__global__ void __launch_bounds__(THREADS, 1)
    gemm_kernel(int M, int N, int K, Schedule sched, int* flags, float alpha, float beta, float* C,
                bool store_c, bool pairs, const __grid_constant__ CUtensorMap map_a,
                const __grid_constant__ CUtensorMap map_b,
                const __grid_constant__ CUtensorMap map_c) {
#ifdef HAS_SM90A
  constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) & ~std::uintptr_t(1023));
  // A stage: BM rows of 128 bytes (64 k). B stage: BN / 64 boxes of BK rows (k) x 128 bytes (n).
  unsigned char* As = smem;
  unsigned char* Bs = smem + STAGES * A_BYTES;
  // TMA_STORE: per consumer warpgroup two C buffers of 64 x 32 floats (rows 128-byte swizzled).
  unsigned char* Cs = Bs + STAGES * B_BYTES;
  const unsigned full = smem_u32(Cs + (TMA_STORE ? 4 * C_BUF_BYTES : 0));  // full[s]: landed
  const unsigned empty = full + STAGES * 8;  // empty[s]: every consumer is done with the stage
  const int wg = threadIdx.x / 128, wg_tid = threadIdx.x % 128;
  const unsigned rank = CLUSTER > 1 ? cluster_rank() : 0;

  const int row_tiles = gemm::ceil_div(M, BM), cols = gemm::ceil_div(N, BN);
  const int unit_rows = gemm::ceil_div(row_tiles, CLUSTER);
  const int cluster = blockIdx.x / CLUSTER, kt = sched.kt;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbar_init(full + 8 * s, 1);             // the producer's arrival (plus the bytes)
      mbar_init(empty + 8 * s, 2 * CLUSTER);  // each consumer warpgroup of each block
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
        tile_of<GROUP>(tile, unit_rows, cols, row, col);
        row = (row * CLUSTER + rank) * BM;
        col *= BN;
        for (int kb = k0; kb < k1; ++kb, ++it) {
          const int s = it % STAGES, k = kb * BK;
          // Round r = it / STAGES of stage s may start once round r - 1 was released: the
          // empty barrier's phase r - 1, whose parity is (r - 1) & 1 = (r + 1) & 1.
          if (it >= STAGES) mbar_wait(empty + 8 * s, (it / STAGES + 1) & 1);
          mbar_expect_bytes(full + 8 * s, A_BYTES + B_BYTES);
          tma_load(smem_u32(As + s * A_BYTES), &map_a, k, row, full + 8 * s);
          constexpr int boxes = BN / 64 / CLUSTER;
          for (int b = rank * boxes; b < (rank + 1) * boxes; ++b) {
            const unsigned dst = smem_u32(Bs + s * B_BYTES + b * BK * 128);
            if (CLUSTER > 1)
              tma_load_multicast(dst, &map_b, col + 64 * b, k, full + 8 * s, (1 << CLUSTER) - 1);
            else
              tma_load(dst, &map_b, col + 64 * b, k, full + 8 * s);
          }
        }
      }
    }
    __syncwarp();  // lanes 1-31 wait for lane 0: the warp meets the .aligned cluster barrier whole
  } else {         // consumers: warpgroup 1 rows 0-63 of the tile, warpgroup 2 rows 64-127
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(CONSUMER_REGS));
    float acc[BN / 2];
    int it = 0;
    // Frees a stage: one thread per consumer warpgroup arrives on it in every block of the cluster.
    auto release = [&](int s) {
      if (CLUSTER == 1 && !RELEASE_CLUSTER && wg_tid == 0) mbar_arrive(empty + 8 * s);
      if ((CLUSTER > 1 || RELEASE_CLUSTER) && wg_tid < CLUSTER)
        mbar_arrive_cluster<RELEASE_CLUSTER>(empty + 8 * s, wg_tid);
    };
    for (int i = 0, tile, k0, k1; sched.piece(cluster, i, tile, k0, k1); ++i) {
      int row, col;
      tile_of<GROUP>(tile, unit_rows, cols, row, col);
      row = (row * CLUSTER + rank) * BM;
      col *= BN;
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
      }
      if (WAIT_PREVIOUS) {
        wgmma_wait<0>();
        release((it - 1) % STAGES);
      }

      // A tile cut between clusters goes into C piece by piece, in the order of its k-tiles: the
      // first piece stores alpha * sums (+ beta * C), each later one waits until the pieces before
      // it are in C and adds its own. The flag counts the pieces in C.
      const bool add = k0 > 0;
      int* flag = flags + ((tile - sched.dp_tiles) * CLUSTER + rank) * 2 + wg - 1;
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

      const int warp_id = wg_tid / 32, lane_id = wg_tid % 32;  // in the warpgroup
      if (TMA_STORE && store_c) {
        // 32 columns at a time: the warpgroup writes them to a free buffer, one thread hands the
        // buffer to the TMA unit and the warpgroup goes on while it is written to C.
        const unsigned bufs = smem_u32(Cs + (wg - 1) * 2 * C_BUF_BYTES);
#pragma unroll
        for (int q = 0; q < BN / C_CHUNK; ++q) {
          const unsigned buf = bufs + (q % 2) * C_BUF_BYTES;
          if (wg_tid == 0) tma_store_wait_read<1>();  // the store that used this buffer has read it
          warpgroup_sync(wg);
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
              const int j = q * (C_CHUNK / 8) + jj;
              asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(at),
                           "f"(alpha * acc[4 * j + 2 * h]), "f"(alpha * acc[4 * j + 2 * h + 1]));
            }
          // Generic-proxy writes that the TMA unit (async proxy) reads need this fence.
          asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
          warpgroup_sync(wg);
          if (wg_tid == 0 && add) tma_add(&map_c, buf, col + q * C_CHUNK, row + (wg - 1) * 64);
          if (wg_tid == 0 && !add) tma_store(&map_c, buf, col + q * C_CHUNK, row + (wg - 1) * 64);
        }
        if (k1 < kt) done();
        continue;
      }
      // Epilogue straight from the accumulators: each lane holds column pairs of two rows.
      const int r0 = row + (wg - 1) * 64 + warp_id * 16 + lane_id / 4, c0 = col + 2 * (lane_id % 4);
#pragma unroll
      for (int j = 0; j < BN / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = r0 + 8 * h, c = c0 + 8 * j;
          if (r >= M || c >= N) continue;
          float* out = C + static_cast<std::size_t>(r) * N + c;
          const float v0 = alpha * acc[4 * j + 2 * h], v1 = alpha * acc[4 * j + 2 * h + 1];
          if (add) {  // C holds the pieces before this one: add this one's part
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
      if (k1 < kt) done();
    }
    // Shared memory must outlive the stores: wait until the TMA unit has read the last buffers.
    if (TMA_STORE && wg_tid == 0) tma_store_wait_read<0>();
  }
  // No block may leave while a peer can still copy into its shared memory or arrive on its
  // barriers.
  if (CLUSTER > 1) cluster_sync();
#endif
}

// PERSISTENT: as many clusters as fit on the GPU, each taking its pieces of the schedule;
// otherwise one cluster per tile. TMA_STORE: C through shared memory and the TMA unit where it can
// (beta 0, C 16-byte aligned rows); otherwise straight from the registers. STREAM_K: the last
// round of tiles shared out by k-tiles where that saves each cluster more than MIN_GAIN k-tiles.
// T, the input type: __half or __nv_bfloat16 (from A and B).
template <int BN, int STAGES, int CLUSTER = 2, bool PERSISTENT = true, int GROUP = 8,
          bool WAIT_PREVIOUS = true, bool RELEASE_CLUSTER = false, bool TMA_STORE = true,
          bool STREAM_K = true, class T = __half>
cudaError_t gemm_launch(int M, int N, int K, float alpha, const T* A, const T* B,
                        float beta, float* C, cudaStream_t stream,
                        gemm::LaunchInfo* info = nullptr) {
  if (cudaError_t err = gemm::check_gemm_args(M, N, K, A, B, C, info)) return err;
  if (M == 0 || N == 0) return cudaSuccess;
  const gemm::Hopper* gpu = nullptr;
  if (cudaError_t err = gemm::hopper(gpu, info)) return err;
  if (K == 0) return gemm::scale_c(1LL * M * N, beta, C, stream);  // C = beta * C
  auto kernel =
      gemm_kernel<BN, STAGES, CLUSTER, GROUP, WAIT_PREVIOUS, RELEASE_CLUSTER, TMA_STORE, T>;
  constexpr std::size_t smem = smem_bytes<BN, STAGES, TMA_STORE>();
  int fit = 0;
  if (cudaError_t err = gemm::clusters_that_fit(kernel, CLUSTER, THREADS, smem, gpu->sms, fit))
    return err;
  const int tiles = gemm::ceil_div(gemm::ceil_div(M, BM), CLUSTER) * gemm::ceil_div(N, BN);
  const int kt = gemm::ceil_div(K, BK), idle = gemm::ceil_div(tiles, fit) * fit - tiles;
  const bool stream_k = STREAM_K && PERSISTENT && idle * kt > MIN_GAIN * fit;
  Schedule sched{tiles, kt, PERSISTENT ? std::min(tiles, fit) : tiles, 0, 0, 0};
  if (stream_k) {  // whole tiles for every full round
    sched.dp_tiles = tiles / fit * fit;
    // The k-tiles shared out, in ranges of at least a quarter of a tile: a tile has at most 5
    // pieces, which go into C one after another.
    const int ks = (tiles - sched.dp_tiles) * kt;
    sched.ranges = std::min(fit, std::max(1, ks / gemm::ceil_div(kt, 4)));
    sched.clusters = sched.dp_tiles > 0 ? fit : sched.ranges;
    sched.share = ks / sched.ranges, sched.extra = ks % sched.ranges;
  }
  gemm::TmaInputs<T> in;  // copied into aligned scratch first where TMA cannot read them
  if (cudaError_t err = in.prepare(*gpu, A, B, M, N, K, BM, BK, stream, info)) return err;
  // The flags of the tiles shared out, taken on the stream.
  int* flags = nullptr;
  cudaError_t err = cudaSuccess;
  if (stream_k) {
    const std::size_t bytes = std::size_t(tiles - sched.dp_tiles) * CLUSTER * 2 * sizeof(int);
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
  const bool store_c = TMA_STORE && beta == 0.0f && gemm::c_tensor_map(*gpu, map_c, C, M, N, 64);
  const bool pairs = N % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  if (!err)
    err = gemm::launch_clusters(kernel, unsigned(sched.clusters * CLUSTER), CLUSTER, THREADS, smem,
                                stream, M, N, K, sched, flags, alpha, beta, C, store_c, pairs,
                                in.a, in.b, map_c);
  const cudaError_t freed = flags ? cudaFreeAsync(flags, stream) : cudaSuccess;
  return in.release(stream, err ? err : freed);
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

}  // namespace ch17
