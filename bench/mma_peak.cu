// The ceiling of mma.sync on this GPU: every warp issues independent mma.sync instructions from
// registers, nothing else (no memory, no address arithmetic), so the time is the tensor cores'
// rate for this instruction alone. 09_mma_sync's README places its kernel against it.
//   usage: mma_peak [--csv FILE]      one row per instruction, warps per SM and chain count
// Measured like the harness: CUDA events around one launch after a warm-up, median of 5. The SM
// clock is measured inside the kernel (clock64 against %globaltimer over block 0's run), since
// under tensor-core load it drops below the boost clock the peak tables assume.
#include "cuda_check.h"
#include "device.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// Operand bits that look like the data of a real GEMM (uniform in [-1, 1) in FP16 or TF32): the
// tensor cores' power, and so the clock, depend on how many bits toggle.
__device__ __forceinline__ unsigned operand(unsigned seed, bool tf32) {
  unsigned h = seed * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  if (tf32) return (h & 0x807fe000u) | 0x3f000000u;  // +-[0.5, 1), 10 mantissa bits
  return (h & 0x83ff83ffu) | 0x38003800u;            // two halves in +-[0.5, 1)
}

// CHAINS independent accumulators per warp: enough of them and each mma waits for nothing but
// the tensor pipe.
template <bool TF32, int CHAINS>
__global__ void mma_loop(int iters, float* out, unsigned long long* clocks) {
  const unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned a0 = operand(s, TF32), a1 = operand(s + 1, TF32), a2 = operand(s + 2, TF32),
                 a3 = operand(s + 3, TF32), b0 = operand(s + 4, TF32), b1 = operand(s + 5, TF32);
  float acc[CHAINS][4] = {};
  unsigned long long c0 = 0, t0 = 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) c0 = clock64(), t0 = global_ns();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int c = 0; c < CHAINS; ++c) {
      if constexpr (TF32)
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};"
            : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
            "{%8,%9}, {%0,%1,%2,%3};"
            : "+f"(acc[c][0]), "+f"(acc[c][1]), "+f"(acc[c][2]), "+f"(acc[c][3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) clocks[0] = clock64() - c0, clocks[1] = global_ns() - t0;
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < CHAINS; ++c)
    sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
  out[s] = sum;  // keeps the mma from being removed
}

struct Row {
  const char* instr;
  int warps_per_sm, chains;
  double ms, tflops, mhz;
};

template <bool TF32, int CHAINS>
Row measure(int sms, int warps_per_sm, float* out, unsigned long long* clocks) {
  // One block of warps_per_sm warps per SM; iterations for ~20 ms at the expected rate.
  const int iters = 20000 * 16 / CHAINS;
  const dim3 grid(sms), block(32 * warps_per_sm);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  mma_loop<TF32, CHAINS><<<grid, block>>>(iters, out, clocks);  // warm-up
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> ms;
  unsigned long long c[2] = {};
  double mhz = 0.0;
  for (int rep = 0; rep < 5; ++rep) {
    CUDA_CHECK(cudaEventRecord(start));
    mma_loop<TF32, CHAINS><<<grid, block>>>(iters, out, clocks);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float t = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
    CUDA_CHECK(cudaMemcpy(c, clocks, sizeof(c), cudaMemcpyDeviceToHost));
    mhz = std::max(mhz, 1e3 * static_cast<double>(c[0]) / static_cast<double>(c[1]));
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  const double flops_per_mma = 2.0 * 16 * 8 * (TF32 ? 8 : 16);
  const double flops = flops_per_mma * CHAINS * static_cast<double>(iters) * sms * warps_per_sm;
  return {TF32 ? "mma.m16n8k8.tf32" : "mma.m16n8k16.f16",
          warps_per_sm,
          CHAINS,
          ms[2],
          flops / (ms[2] * 1e-3) / 1e12,
          mhz};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string csv;
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
        csv = argv[++i];
      } else {
        std::fprintf(stderr, "mma_peak: unknown argument '%s'; usage: mma_peak [--csv FILE]\n",
                     argv[i]);
        return 2;
      }
    }
    const gemm::DeviceInfo d = gemm::query_device();
    if (d.major < 8) {
      std::fprintf(stderr,
                   "mma_peak: mma.sync m16n8k16 needs compute capability 8.0; %s is %d.%d\n",
                   d.name.c_str(), d.major, d.minor);
      return 1;
    }
    float* out = nullptr;
    unsigned long long* clocks = nullptr;
    CUDA_CHECK(cudaMalloc(&out, sizeof(float) * d.sms * 1024));
    CUDA_CHECK(cudaMalloc(&clocks, 2 * sizeof(unsigned long long)));
    std::vector<Row> rows;
    for (int warps : {4, 8, 16}) {
      rows.push_back(measure<false, 4>(d.sms, warps, out, clocks));
      rows.push_back(measure<false, 8>(d.sms, warps, out, clocks));
      rows.push_back(measure<false, 16>(d.sms, warps, out, clocks));
      rows.push_back(measure<true, 8>(d.sms, warps, out, clocks));
      rows.push_back(measure<true, 16>(d.sms, warps, out, clocks));
    }
    CUDA_CHECK(cudaFree(out));
    CUDA_CHECK(cudaFree(clocks));
    std::FILE* f = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
    if (!csv.empty() && !f) {
      std::fprintf(stderr, "mma_peak: cannot write %s\n", csv.c_str());
      return 1;
    }
    const char* header = "instruction,warps_per_sm,chains,ms,tflops,sm_clock_mhz\n";
    std::printf("# %s, %d SMs\n%s", d.name.c_str(), d.sms, header);
    if (f) std::fputs(header, f);
    for (const Row& r : rows) {
      char line[160];
      std::snprintf(line, sizeof(line), "%s,%d,%d,%.3f,%.1f,%.0f\n", r.instr, r.warps_per_sm,
                    r.chains, r.ms, r.tflops, r.mhz);
      std::fputs(line, stdout);
      if (f) std::fputs(line, f);
    }
    if (f) std::fclose(f);
    return 0;
  } catch (const gemm::NoGpu& e) {
    std::fprintf(stderr, "mma_peak: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mma_peak: %s\n", e.what());
    return 1;
  }
}
