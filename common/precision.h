// The four ways a GEMM can round its inputs, and the tolerance each gets against the FP64
// reference.
#pragma once

#include <string>

namespace gemm {

enum class Precision {
  FP32,  // FP32 inputs, FP32 products and accumulation (CUDA cores)
  TF32,  // FP32 inputs rounded to TF32 (10-bit mantissa) for tensor-core products, FP32 accumulate
  FP16,  // FP16 inputs (the reference sees the same rounded values), FP32 accumulate
  BF16,  // BF16 inputs (8-bit mantissa, FP32's exponent; the reference sees them), FP32 accumulate
};

// Whether the kernels read 16-bit inputs (FP16 or BF16), which the reference sees rounded.
inline bool sixteen_bit(Precision p) { return p == Precision::FP16 || p == Precision::BF16; }

inline std::string to_string(Precision p) {
  switch (p) {
    case Precision::FP32:
      return "fp32";
    case Precision::TF32:
      return "tf32";
    case Precision::FP16:
      return "fp16";
    case Precision::BF16:
      return "bf16";
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
// FP16 and BF16, where the reference already uses the rounded inputs and their products (11 and
// 8 significant bits each) are exact in FP32.
// atol is relative to the output's RMS because cancellation leaves some outputs near zero,
// where a relative error means nothing. 16 leaves room for the worst of 10^7 elements.
Tolerance tolerance_for(Precision p, int K, double ref_rms);

}  // namespace gemm
