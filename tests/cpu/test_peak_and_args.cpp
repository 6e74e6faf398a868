#include "../catch_compat.h"

#include "gemm_check.h"
#include "peak.h"

#include <climits>
#include <utility>
#include <vector>

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
}

TEST_CASE("a C taller than 65535 row blocks is launched in slices that cover every row once",
          "[contract]") {
  std::vector<std::pair<int, int>> slices;
  const auto record = [&](int row0, int rows) {
    slices.push_back({row0, rows});
    return cudaSuccess;
  };
  CHECK(gemm::for_each_row_slice(65535 * 8, 8, record) == cudaSuccess);
  CHECK(slices == std::vector<std::pair<int, int>>{{0, 65535 * 8}});
  slices.clear();
  CHECK(gemm::for_each_row_slice(2 * 65535 * 128 + 5, 128, record) == cudaSuccess);
  CHECK(slices == std::vector<std::pair<int, int>>{
                      {0, 65535 * 128}, {65535 * 128, 65535 * 128}, {2 * 65535 * 128, 5}});
  slices.clear();
  CHECK(gemm::for_each_row_slice(INT_MAX, 256, record) == cudaSuccess);  // no int overflow
  CHECK(slices.back().first + slices.back().second == INT_MAX);
  // The first failed launch stops the rest and its error is returned.
  int calls = 0;
  CHECK(gemm::for_each_row_slice(3 * 65535, 1, [&](int, int) {
          ++calls;
          return cudaErrorInvalidConfiguration;
        }) == cudaErrorInvalidConfiguration);
  CHECK(calls == 1);
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

TEST_CASE("the 16-byte path runs exactly where every row of every matrix starts 16-byte aligned",
          "[contract]") {
  alignas(16) float f[16] = {};
  alignas(16) short h[16] = {};
  const auto floats = [&](int K, int N, int offset) {
    return gemm::wide_access(4, K, N, f + offset, f + offset, f + offset);
  };
  CHECK(floats(4, 4, 0));
  CHECK(gemm::access_path() == "16-byte");
  CHECK(floats(4096, 8, 0));
  CHECK_FALSE(floats(4095, 8, 0));  // K: rows of A start 4095 floats apart
  CHECK(gemm::access_path() == "element");
  CHECK_FALSE(floats(8, 4095, 0));  // N: rows of B and C
  CHECK_FALSE(floats(8, 2, 0));     // N = 1 or 2 (a matrix-vector product and the like)
  CHECK_FALSE(floats(8, 8, 1));     // one element past an aligned address
  CHECK_FALSE(gemm::wide_access(4, 8, 8, f, f, f + 1));  // C alone
  // FP16 inputs: 8 per 16 bytes.
  CHECK(gemm::wide_access(8, 16, 16, h, h, f));
  CHECK_FALSE(gemm::wide_access(8, 12, 16, h, h, f));
  CHECK_FALSE(gemm::wide_access(8, 16, 16, h + 4, h, f));
  // The argument checks leave the report at "element" until a launcher says otherwise (01, 02).
  CHECK(gemm::check_gemm_args(4, 4, 4, f, f, f) == cudaSuccess);
  CHECK(gemm::access_path() == "element");
}
