#include "peak.h"

namespace gemm {

int fp32_lanes_per_sm(int major, int minor) {
  switch (major) {
    case 5:
      return 128;  // Maxwell
    case 6:
      return minor == 0 ? 64 : 128;  // P100: 64; consumer Pascal: 128
    case 7:
      return 64;  // Volta, Turing
    case 8:
      return minor == 0 ? 64 : 128;  // A100: 64; GA10x, Orin, Ada: 128
    case 9:
      return 128;  // Hopper
    case 10:       // Blackwell datacenter
    case 11:
    case 12:
      return 128;  // Blackwell consumer (RTX 50)
    default:
      return 0;
  }
}

int dense_flops_per_clock_per_sm(int major, int minor, Precision p) {
  if (p == Precision::FP32) return 2 * fp32_lanes_per_sm(major, minor);
  const bool tf32 = p == Precision::TF32;
  // Tensor cores, dense, FP32 accumulate. GeForce and professional parts of one compute
  // capability differ (GA102 and AD102 GeForce run FP16 with FP32 accumulate at half rate), so
  // only the data-center chips are listed.
  // V100: 512 FP16 FMA/clk/SM; its tensor cores have no TF32 and no BF16.
  if (major == 7 && minor == 0) return tf32 || p == Precision::BF16 ? 0 : 1024;
  if (major == 8 && minor == 0) return tf32 ? 1024 : 2048;  // A100: 512 TF32, 1024 FP16 FMA
  if (major == 9 && minor == 0) return tf32 ? 2048 : 4096;  // H100, H200: 1024, 2048 FMA
  return 0;
}

double fp32_peak_flops(int sms, int lanes_per_sm, double clock_hz) {
  return static_cast<double>(sms) * lanes_per_sm * 2.0 * clock_hz;
}

double peak_flops(int sms, int flops_per_clock_per_sm, double clock_hz) {
  return static_cast<double>(sms) * flops_per_clock_per_sm * clock_hz;
}

}  // namespace gemm
