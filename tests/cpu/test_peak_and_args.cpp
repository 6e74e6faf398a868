#include "../catch_compat.h"

#include "gemm_check.h"
#include "peak.h"

TEST_CASE("FP32 lanes per SM by compute capability", "[peak]") {
  CHECK(gemm::fp32_lanes_per_sm(9, 0) == 128);   // H100, H200
  CHECK(gemm::fp32_lanes_per_sm(8, 0) == 64);    // A100
  CHECK(gemm::fp32_lanes_per_sm(8, 6) == 128);   // RTX 3060 Ti
  CHECK(gemm::fp32_lanes_per_sm(8, 9) == 128);   // Ada
  CHECK(gemm::fp32_lanes_per_sm(7, 0) == 64);    // V100
  CHECK(gemm::fp32_lanes_per_sm(12, 0) == 128);  // RTX 5060
  CHECK(gemm::fp32_lanes_per_sm(3, 5) == 0);     // unknown: no peak rather than a wrong one
}

TEST_CASE("FP32 peak = SMs x lanes x 2 x clock", "[peak]") {
  // H200 SXM: 132 SMs at 1980 MHz -> 66.9 TFLOP/s.
  CHECK(gemm::fp32_peak_flops(132, 128, 1.98e9) / 1e12 == Approx(66.9).epsilon(0.001));
  // Seed 000's RTX 3060 Ti: 38 SMs at 1665 MHz -> 16.2 TFLOP/s.
  CHECK(gemm::fp32_peak_flops(38, 128, 1.665e9) / 1e12 == Approx(16.2).epsilon(0.001));
}

TEST_CASE("launcher argument checks follow the chapter contract", "[contract]") {
  float x = 0.0f;
  const float* p = &x;
  CHECK(gemm::check_gemm_args(4, 4, 4, p, p, &x) == cudaSuccess);
  CHECK(gemm::rejection_reason().empty());
  CHECK(gemm::check_gemm_args(0, 0, 0, nullptr, nullptr, nullptr) == cudaSuccess);
  CHECK(gemm::check_gemm_args(4, 4, 0, nullptr, nullptr, &x) == cudaSuccess);  // A, B empty

  CHECK(gemm::check_gemm_args(-5, 4, 4, p, p, &x) == cudaErrorInvalidValue);
  CHECK(gemm::rejection_reason() == "sizes must be >= 0; got M=-5 N=4 K=4");
  CHECK(gemm::check_gemm_args(4, 4, 4, nullptr, p, &x) == cudaErrorInvalidValue);
  CHECK(gemm::rejection_reason().find("null") != std::string::npos);
  CHECK(gemm::check_gemm_args(65536, 4, 32768, p, p, &x) == cudaErrorInvalidValue);
  CHECK(gemm::rejection_reason().find("2^31-1") != std::string::npos);
  CHECK(gemm::check_gemm_args(46341, 46341, 1, p, p, &x) == cudaErrorInvalidValue);  // M*N
  CHECK(gemm::check_gemm_args(46340, 46340, 1, p, p, &x) == cudaSuccess);
  CHECK(gemm::check_grid_rows(65535 * 8, 8) == cudaSuccess);
  CHECK(gemm::check_grid_rows(65535 * 8 + 1, 8) == cudaErrorInvalidValue);
}

TEST_CASE("ceil_div and alignment", "[contract]") {
  CHECK(gemm::ceil_div(1, 32) == 1);
  CHECK(gemm::ceil_div(32, 32) == 1);
  CHECK(gemm::ceil_div(33, 32) == 2);
  CHECK(gemm::ceil_div(0, 32) == 0);
  alignas(16) float v[8];
  CHECK(gemm::aligned_16(v));
  CHECK_FALSE(gemm::aligned_16(v + 1));
}
