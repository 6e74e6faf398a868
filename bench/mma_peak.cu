// The ceiling of mma.sync on this GPU: every warp issues independent mma.sync instructions from
// registers, nothing else (no memory, no address arithmetic), so the time is the tensor cores'
// rate for this instruction alone. 09_mma_sync's README places its kernel against it.
//   usage: mma_peak [--csv FILE]      one row per instruction, warps per SM and chain count
// Measured like the harness: CUDA events around one launch after a warm-up, median of 5. The SM
// clock is measured inside the kernel (clock64 against %globaltimer over block 0's run), since
// under tensor-core load it drops below the boost clock the peak tables assume (ceiling.cuh).
#include "ceiling.cuh"
#include "device.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using ceiling::global_ns;
using ceiling::operand;

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
  const ceiling::Timing t = ceiling::time_launches(
      [&] { mma_loop<TF32, CHAINS><<<grid, block>>>(iters, out, clocks); }, clocks);
  const double flops_per_mma = 2.0 * 16 * 8 * (TF32 ? 8 : 16);
  const double flops = flops_per_mma * CHAINS * static_cast<double>(iters) * sms * warps_per_sm;
  return {TF32 ? "mma.m16n8k8.tf32" : "mma.m16n8k16.f16",
          warps_per_sm,
          CHAINS,
          t.ms,
          flops / (t.ms * 1e-3) / 1e12,
          t.mhz};
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string csv;
    if (!ceiling::parse_args(argc, argv, "mma_peak", csv)) return 2;
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
    std::vector<std::string> lines;
    for (const Row& r : rows) {
      char line[160];
      std::snprintf(line, sizeof(line), "%s,%d,%d,%.3f,%.1f,%.0f\n", r.instr, r.warps_per_sm,
                    r.chains, r.ms, r.tflops, r.mhz);
      lines.push_back(line);
    }
    if (!ceiling::write_rows("mma_peak", csv, d.name + ", " + std::to_string(d.sms) + " SMs",
                             "instruction,warps_per_sm,chains,ms,tflops,sm_clock_mhz\n", lines))
      return 1;
    return 0;
  } catch (const gemm::NoGpu& e) {
    std::fprintf(stderr, "mma_peak: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mma_peak: %s\n", e.what());
    return 1;
  }
}
