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
  // Post 000's RTX 3060 Ti: 38 SMs at 1665 MHz -> 16.2 TFLOP/s.
  CHECK(gemm::fp32_peak_flops(38, 128, 1.665e9) / 1e12 == Approx(16.2).epsilon(0.001));
}

TEST_CASE("launcher argument checks follow the chapter contract", "[contract]") {
  float x = 0.0f;
  const float* p = &x;
  gemm::LaunchInfo info;
  CHECK(gemm::check_gemm_args(4, 4, 4, p, p, &x, &info) == cudaSuccess);
  CHECK(info.why.empty());
  CHECK(gemm::check_gemm_args(0, 0, 0, nullptr, nullptr, nullptr, &info) == cudaSuccess);
  CHECK(gemm::check_gemm_args(4, 4, 0, nullptr, nullptr, &x, &info) == cudaSuccess);  // A, B empty

  CHECK(gemm::check_gemm_args(-5, 4, 4, p, p, &x, &info) == cudaErrorInvalidValue);
  CHECK(info.why == "sizes must be >= 0; got M=-5 N=4 K=4");
  CHECK(gemm::check_gemm_args(4, 4, 4, nullptr, p, &x, &info) == cudaErrorInvalidValue);
  CHECK(info.why.find("null") != std::string::npos);
  CHECK(gemm::check_gemm_args(65536, 4, 32768, p, p, &x, &info) == cudaErrorInvalidValue);
  CHECK(info.why.find("2^31-1") != std::string::npos);
  CHECK(gemm::check_gemm_args(46341, 46341, 1, p, p, &x, &info) == cudaErrorInvalidValue);  // M*N
  CHECK(gemm::check_gemm_args(46340, 46340, 1, p, p, &x, &info) == cudaSuccess);
  CHECK(info.why.empty());  // each call starts a fresh report
  // Without a report the same checks hold: the entry points pass none.
  CHECK(gemm::check_gemm_args(-5, 4, 4, p, p, &x, nullptr) == cudaErrorInvalidValue);
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
  gemm::LaunchInfo info;
  const auto floats = [&](int K, int N, int offset) {
    return gemm::wide_access(4, K, N, f + offset, f + offset, f + offset, &info);
  };
  CHECK(floats(4, 4, 0));
  CHECK(info.access == "16-byte");
  CHECK(floats(4096, 8, 0));
  CHECK_FALSE(floats(4095, 8, 0));  // K: rows of A start 4095 floats apart
  CHECK(info.access == "element");
  CHECK_FALSE(floats(8, 4095, 0));  // N: rows of B and C
  CHECK_FALSE(floats(8, 2, 0));     // N = 1 or 2 (a matrix-vector product and the like)
  CHECK_FALSE(floats(8, 8, 1));     // one element past an aligned address
  CHECK_FALSE(gemm::wide_access(4, 8, 8, f, f, f + 1, &info));  // C alone
  // FP16 inputs: 8 per 16 bytes.
  CHECK(gemm::wide_access(8, 16, 16, h, h, f, &info));
  CHECK_FALSE(gemm::wide_access(8, 12, 16, h, h, f, &info));
  CHECK_FALSE(gemm::wide_access(8, 16, 16, h + 4, h, f, &info));
  // The argument checks leave the report at "element" until a launcher says otherwise (01, 02).
  CHECK(gemm::check_gemm_args(4, 4, 4, f, f, f, &info) == cudaSuccess);
  CHECK(info.access == "element");
}

TEST_CASE("dense peaks per SM and clock, by compute capability and precision", "[peak]") {
  using gemm::Precision;
  CHECK(gemm::dense_flops_per_clock_per_sm(9, 0, Precision::FP32) == 256);
  CHECK(gemm::dense_flops_per_clock_per_sm(9, 0, Precision::TF32) == 2048);
  CHECK(gemm::dense_flops_per_clock_per_sm(9, 0, Precision::FP16) == 4096);
  CHECK(gemm::dense_flops_per_clock_per_sm(8, 0, Precision::FP16) == 2048);
  CHECK(gemm::dense_flops_per_clock_per_sm(8, 6, Precision::FP16) == 0);  // GeForce/pro differ
  CHECK(gemm::dense_flops_per_clock_per_sm(8, 6, Precision::FP32) == 256);
  // BF16 runs at FP16's rate where tensor cores have it (A100, Hopper); V100 has none.
  CHECK(gemm::dense_flops_per_clock_per_sm(9, 0, Precision::BF16) == 4096);
  CHECK(gemm::dense_flops_per_clock_per_sm(8, 0, Precision::BF16) == 2048);
  CHECK(gemm::dense_flops_per_clock_per_sm(7, 0, Precision::BF16) == 0);
  CHECK(gemm::dense_flops_per_clock_per_sm(7, 0, Precision::FP16) == 1024);
  // H200: 132 SMs at 1980 MHz: FP16 with FP32 accumulate 1070.5 TFLOP/s, TF32 535.3.
  CHECK(gemm::peak_flops(132, 4096, 1.98e9) / 1e12 == Approx(1070.5).epsilon(0.0005));
  CHECK(gemm::peak_flops(132, 2048, 1.98e9) / 1e12 == Approx(535.3).epsilon(0.0005));
}

TEST_CASE("split K: only a C of few tiles splits, in chunks of at least 128 k", "[contract]") {
  CHECK(gemm::k_splits(64, 1024, 264) == 4);   // 07 at 1024^3: 64 tiles, 2 x 132 blocks fit
  CHECK(gemm::k_splits(64, 256, 264) == 2);    // K / 128 caps it
  CHECK(gemm::k_splits(133, 4096, 264) == 1);  // more than half the resident blocks: no split
  CHECK(gemm::k_splits(1, 100, 264) == 1);     // K below 256: chunks would be under 128
  CHECK(gemm::k_splits(16, 8192, 132) == 8);   // 10: one block per SM
}
