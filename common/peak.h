// FP32 peak arithmetic: SMs x FP32 lanes per SM x 2 (an FMA is two FLOPs) x clock.
#pragma once

namespace gemm {

// FP32 lanes (FMA units) per SM by compute capability; 0 when the architecture is unknown.
int fp32_lanes_per_sm(int major, int minor);

// In FLOP/s.
double fp32_peak_flops(int sms, int lanes_per_sm, double clock_hz);

}  // namespace gemm
