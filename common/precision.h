// The three ways a GEMM can round its inputs, and the tolerance each gets against the FP64
// reference.
#pragma once

#include <string>

namespace gemm {

enum class Precision {
  FP32,  // FP32 inputs, FP32 products and accumulation (CUDA cores)
  TF32,  // FP32 inputs rounded to TF32 (10-bit mantissa) for tensor-core products, FP32 accumulate
  FP16,  // FP16 inputs (the reference sees the same rounded values), FP32 accumulate
};

inline std::string to_string(Precision p) {
  switch (p) {
    case Precision::FP32:
      return "fp32";
    case Precision::TF32:
      return "tf32";
    case Precision::FP16:
      return "fp16";
  }
  return "?";
}

// |got - ref| <= atol + rtol * |ref|, element by element (numpy's allclose).
struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

// The tolerance rule (see common/README.md for the derivation):
//   rtol = 16 * (u_in + u_acc * sqrt(K)),   atol = rtol * rms(ref)
// u_acc = 2^-24 is FP32's unit roundoff: a K-long FP32 sum of random-sign terms drifts like
// sqrt(K) roundings. u_in = 2^-11 for TF32, whose input rounding dominates; 0 for FP32 and for
// FP16, where the reference already uses the rounded inputs and FP16 products are exact in FP32.
// atol is relative to the output's RMS because cancellation leaves some outputs near zero,
// where a relative error means nothing. 16 leaves room for the worst of 10^7 elements.
Tolerance tolerance_for(Precision p, int K, double ref_rms);

}  // namespace gemm
