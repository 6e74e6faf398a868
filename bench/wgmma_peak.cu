// The ceiling of wgmma on this GPU (Hopper, sm_90a): every warpgroup issues wgmma.mma_async back
// to back, A and B read from 128-byte-swizzled shared memory through matrix descriptors (filled
// once), the accumulators in registers, nothing else in the loop. Four wgmma per commit group (one
// k-tile of 64 halves or 32 TF32 values, as 16_tma_store's consumers issue them), then
// wgmma.wait_group 0 (the tensor pipe drains every k-tile) or 1 (one group stays in flight): the
// ceiling the Hopper chapters (11 on) stand against, as bench/mma_peak.cu is 09's and 10's.
//   usage: wgmma_peak [--csv FILE]    one row per instruction, warpgroups per SM and wait
// Measured as mma_peak measures (ceiling.cuh): CUDA events around one launch after a warm-up,
// median of 5, the SM clock measured inside the kernel (clock64 against %globaltimer over block
// 0's run); the fraction of the dense peak is at that clock (common/peak.cpp's FLOP per clock per
// SM). A GPU or build without sm_90a code is refused by common/hopper.cuh's probe.
#include "ceiling.cuh"
#include "device.h"
#include "hopper.cuh"
#include "peak.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using ceiling::global_ns;
using ceiling::operand;

// The device code below exists only in the sm_90a pass (the kernel's body is empty elsewhere).
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
// Shared-memory matrix descriptor (as 16_tma_store's): start address, leading and stride byte
// offsets (all >> 4), bits 62-63 = 1: the 128-byte swizzle.
__device__ __forceinline__ unsigned long long smem_desc(unsigned addr, unsigned lbo, unsigned sbo) {
  return ((addr & 0x3FFFF) >> 4) | (unsigned long long)(lbo >> 4) << 16 |
         (unsigned long long)(sbo >> 4) << 32 | 1ull << 62;
}

// clang-format off
#define WG_R8(a, b, c, d, e, f, g, h) \
  "%" #a ", %" #b ", %" #c ", %" #d ", %" #e ", %" #f ", %" #g ", %" #h
#define WG_R32 \
  WG_R8(0, 1, 2, 3, 4, 5, 6, 7) ", " WG_R8(8, 9, 10, 11, 12, 13, 14, 15) ", " \
  WG_R8(16, 17, 18, 19, 20, 21, 22, 23) ", " WG_R8(24, 25, 26, 27, 28, 29, 30, 31)
#define WG_R64 \
  WG_R32 ", " WG_R8(32, 33, 34, 35, 36, 37, 38, 39) ", " \
  WG_R8(40, 41, 42, 43, 44, 45, 46, 47) ", " WG_R8(48, 49, 50, 51, 52, 53, 54, 55) ", " \
  WG_R8(56, 57, 58, 59, 60, 61, 62, 63)
#define WG_R128 \
  WG_R64 ", " WG_R8(64, 65, 66, 67, 68, 69, 70, 71) ", " \
  WG_R8(72, 73, 74, 75, 76, 77, 78, 79) ", " WG_R8(80, 81, 82, 83, 84, 85, 86, 87) ", " \
  WG_R8(88, 89, 90, 91, 92, 93, 94, 95) ", " WG_R8(96, 97, 98, 99, 100, 101, 102, 103) ", " \
  WG_R8(104, 105, 106, 107, 108, 109, 110, 111) ", " \
  WG_R8(112, 113, 114, 115, 116, 117, 118, 119) ", " \
  WG_R8(120, 121, 122, 123, 124, 125, 126, 127)
// clang-format on
#define WG_ACC8(i)                                                                      \
  "+f"(acc[i]), "+f"(acc[i + 1]), "+f"(acc[i + 2]), "+f"(acc[i + 3]), "+f"(acc[i + 4]), \
      "+f"(acc[i + 5]), "+f"(acc[i + 6]), "+f"(acc[i + 7])
#define WG_ACC32(i) WG_ACC8(i), WG_ACC8(i + 8), WG_ACC8(i + 16), WG_ACC8(i + 24)

// acc (64 x N, FP32) += A (64 x K, K-major) * B (K x N, K-major), K = 16 (FP16) or 8 (TF32, which
// takes both operands K-major only). scale-d = 1 (accumulate), no negation, no transpose.
template <bool TF32, int N>
__device__ __forceinline__ void wgmma(float (&acc)[N / 2], unsigned long long a,
                                      unsigned long long b) {
  static_assert(N == 256 || (!TF32 && (N == 128 || N == 64)), "the shapes measured here");
  if constexpr (TF32)
    asm volatile("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {" WG_R128
                 "}, %128, %129, 1, 1, 1;"
                 : WG_ACC32(0), WG_ACC32(32), WG_ACC32(64), WG_ACC32(96)
                 : "l"(a), "l"(b));
  else if constexpr (N == 256)
    asm volatile("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" WG_R128
                 "}, %128, %129, 1, 1, 1, 0, 0;"
                 : WG_ACC32(0), WG_ACC32(32), WG_ACC32(64), WG_ACC32(96)
                 : "l"(a), "l"(b));
  else if constexpr (N == 128)
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {" WG_R64
                 "}, %64, %65, 1, 1, 1, 0, 0;"
                 : WG_ACC32(0), WG_ACC32(32)
                 : "l"(a), "l"(b));
  else
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {" WG_R32
                 "}, %32, %33, 1, 1, 1, 0, 0;"
                 : WG_ACC32(0)
                 : "l"(a), "l"(b));
}
#endif

// One block per SM, blockDim.x / 128 warpgroups. Shared memory: one 64 x 128-byte A tile per
// warpgroup (as 16_tma_store's consumers each have their 64 rows), then the N x 128-byte B tile
// they share, 1024-byte aligned (the swizzle pattern's period). WAIT: the groups left in flight
// after each commit.
template <bool TF32, int N, int WAIT>
__global__ void __launch_bounds__(384, 1)
    wgmma_loop(int iters, float* out, unsigned long long* clocks) {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  extern __shared__ unsigned char smem[];
  unsigned* tiles = reinterpret_cast<unsigned*>((reinterpret_cast<uintptr_t>(smem) + 1023) & ~1023);
  const int warpgroups = blockDim.x / 128, words = (64 * warpgroups + N) * 32;
  for (int i = threadIdx.x; i < words; i += blockDim.x)
    tiles[i] = operand(blockIdx.x * words + i, TF32);
  // Generic-proxy writes that wgmma (the async proxy) will read.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(tiles));
  const unsigned a = base + threadIdx.x / 128 * 64 * 128, b = base + warpgroups * 64 * 128;
  float acc[N / 2] = {};
  unsigned long long c0 = 0, t0 = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) c0 = clock64(), t0 = global_ns();
  for (int it = 0; it < iters; ++it) {
    // A fence before each k-tile, as a GEMM has (acc was last written by plain instructions, or
    // handed back by wait_group): without it ptxas inserts one itself (info C7519).
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    // 16 FP16 or 8 TF32 along K = 32 bytes along the swizzled 128-byte rows; 8-row groups 1024 B
    // apart (stride; the leading offset is unused for a swizzled K-major operand).
#pragma unroll
    for (int kk = 0; kk < 4; ++kk)
      wgmma<TF32, N>(acc, smem_desc(a + kk * 32, 16, 1024), smem_desc(b + kk * 32, 16, 1024));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(WAIT) : "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  if (blockIdx.x == 0 && threadIdx.x == 0) clocks[0] = clock64() - c0, clocks[1] = global_ns() - t0;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    sum += acc[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;  // keeps the wgmma from being removed
#endif
}

struct Row {
  std::string instr;
  int warpgroups_per_sm, wait;
  double ms, tflops, mhz;
};

template <bool TF32, int N, int WAIT>
Row measure(int sms, int warpgroups, float* out, unsigned long long* clocks) {
  // Iterations (k-tiles) for ~55 ms at the peak rate and 1.9 GHz: a k-tile of m64n256 FP16 is
  // 4 x 128 clocks of an SM's tensor cores per warpgroup, TF32 twice that.
  const int iters = (TF32 ? 100000 : 200000) * 256 / N / warpgroups;
  const int smem = 1024 + (64 * warpgroups + N) * 128;
  CUDA_CHECK(cudaFuncSetAttribute(wgmma_loop<TF32, N, WAIT>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const dim3 grid(sms), block(128 * warpgroups);
  const ceiling::Timing t = ceiling::time_launches(
      [&] { wgmma_loop<TF32, N, WAIT><<<grid, block, smem>>>(iters, out, clocks); }, clocks);
  const int k = TF32 ? 8 : 16;
  const double flops = 2.0 * 64 * N * k * 4 * static_cast<double>(iters) * sms * warpgroups;
  return {"wgmma.m64n" + std::to_string(N) + "k" + std::to_string(k) + (TF32 ? ".tf32" : ".f16"),
          warpgroups,
          WAIT,
          t.ms,
          flops / (t.ms * 1e-3) / 1e12,
          t.mhz};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string csv;
    if (!ceiling::parse_args(argc, argv, "wgmma_peak", csv)) return 2;
    const gemm::DeviceInfo d = gemm::query_device();
    const gemm::Hopper* gpu = nullptr;
    gemm::LaunchInfo info;
    if (const cudaError_t err = gemm::hopper(gpu, &info)) {
      std::fprintf(stderr, "wgmma_peak: %s\n",
                   info.why.empty() ? cudaGetErrorString(err) : info.why.c_str());
      return 1;
    }
    float* out = nullptr;
    unsigned long long* clocks = nullptr;
    CUDA_CHECK(cudaMalloc(&out, sizeof(float) * d.sms * 384));
    CUDA_CHECK(cudaMalloc(&clocks, 2 * sizeof(unsigned long long)));
    std::vector<Row> rows;
    for (int wgs : {1, 2, 3}) {  // 3 x 128 threads x 168 registers: all of an SM's 65,536
      rows.push_back(measure<false, 256, 0>(d.sms, wgs, out, clocks));
      rows.push_back(measure<false, 256, 1>(d.sms, wgs, out, clocks));
      rows.push_back(measure<false, 128, 0>(d.sms, wgs, out, clocks));
      rows.push_back(measure<false, 128, 1>(d.sms, wgs, out, clocks));
      rows.push_back(measure<false, 64, 0>(d.sms, wgs, out, clocks));
      rows.push_back(measure<false, 64, 1>(d.sms, wgs, out, clocks));
      rows.push_back(measure<true, 256, 0>(d.sms, wgs, out, clocks));
      rows.push_back(measure<true, 256, 1>(d.sms, wgs, out, clocks));
    }
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(clocks));
    const int fp16 = gemm::dense_flops_per_clock_per_sm(d.major, d.minor, gemm::Precision::FP16);
    const int tf32 = gemm::dense_flops_per_clock_per_sm(d.major, d.minor, gemm::Precision::TF32);
    std::vector<std::string> lines;
    for (const Row& r : rows) {
      const double per_clock = r.tflops * 1e12 / (d.sms * r.mhz * 1e6);
      const int peak = r.instr.find("tf32") != std::string::npos ? tf32 : fp16;
      char line[200];
      std::snprintf(line, sizeof(line), "%s,%d,%d,%.3f,%.1f,%.0f,%.0f,%.1f\n", r.instr.c_str(),
                    r.warpgroups_per_sm, r.wait, r.ms, r.tflops, r.mhz, per_clock,
                    peak > 0 ? 100.0 * per_clock / peak : 0.0);
      lines.push_back(line);
    }
    const std::string title = d.name + ", " + std::to_string(d.sms) +
                              " SMs, dense peak per clock per SM: FP16 " + std::to_string(fp16) +
                              " FLOP, TF32 " + std::to_string(tf32) + " FLOP";
    if (!ceiling::write_rows("wgmma_peak", csv, title,
                             "instruction,warpgroups_per_sm,wait_group,ms,tflops,sm_clock_mhz,"
                             "flops_per_clock_per_sm,pct_peak_at_clock\n",
                             lines))
      return 1;
    return 0;
  } catch (const gemm::NoGpu& e) {
    std::fprintf(stderr, "wgmma_peak: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "wgmma_peak: %s\n", e.what());
    return 1;
  }
}
