// Peak arithmetic: SMs x dense FLOP per clock per SM (an FMA is two FLOPs) x clock, for each
// precision the chapters compute in.
#pragma once

#include "precision.h"

namespace gemm {

// FP32 lanes (FMA units) per SM by compute capability; 0 when the architecture is unknown.
int fp32_lanes_per_sm(int major, int minor);

// Dense FLOP per clock per SM of the unit that computes precision p: FP32 on the CUDA cores,
// TF32 and FP16 (FP32 accumulate) on the tensor cores. 0 where it is not known here (a wrong
// peak would be worse than none); common/README.md cites the sources.
int dense_flops_per_clock_per_sm(int major, int minor, Precision p);

// In FLOP/s.
double fp32_peak_flops(int sms, int lanes_per_sm, double clock_hz);
double peak_flops(int sms, int flops_per_clock_per_sm, double clock_hz);

}  // namespace gemm
