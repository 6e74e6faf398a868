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

double fp32_peak_flops(int sms, int lanes_per_sm, double clock_hz) {
  return static_cast<double>(sms) * lanes_per_sm * 2.0 * clock_hz;
}

}  // namespace gemm
