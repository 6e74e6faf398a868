#include "gemm_tests.h"

#include "gemm_check.h"

#include <climits>
#include <cmath>
#include <cstring>
#include <vector>

namespace gemm_tests {
namespace {

struct AlphaBeta {
  float alpha, beta;
};

// Every launcher must compute every shape. 1x1x1, odd sizes, sizes around 32/64/128-wide tile
// edges, K = 0 and K below the k-tile, tall-skinny and short-wide, a matrix-vector product,
// 1000-ish, 4096 +- 1, one big square and one taller than a grid, and two with more tiles than
// blocks fit on the GPU at once. Some keep K and N multiples of 4
// or 8 so that the 16-byte paths run them too (on aligned buffers).
const Shape kShapes[] = {
    {1, 1, 1},
    {3, 5, 7},
    {33, 65, 17},
    {127, 129, 131},
    {129, 127, 125},
    {1024, 1, 1024},
    {777, 1023, 333},
    {96, 2048, 4100},
    {4095, 4095, 4095},
    {4097, 4097, 4097},
    {9000000, 1, 1},  // more row blocks than gridDim.y holds: launched in slices
    {1, 4, 4},
    {5, 8, 12},
    {7, 12, 0},
    {33, 68, 20},
    {127, 132, 36},
    {129, 124, 44},
    {128, 128, 128},
    {255, 260, 68},
    {2000, 4, 64},
    {4, 2000, 32},
    {16, 16, 4096},
    {1000, 1004, 1000},
    {2048, 2048, 2048},
    // N and K multiples of 8 (FP16 16-byte copies), M and N off every tile size.
    {7, 8, 8},
    {33, 72, 24},
    {129, 136, 40},
    {200, 200, 8},
    {1000, 1000, 1000},
    // More tiles of C than fit on the GPU at once, so that persistent blocks (10) loop over
    // several: one k-tile (K = 8), and a few with edges everywhere.
    {4096, 4096, 8},
    {3000, 2056, 200},
};

// Small shapes get every pair; large ones the plain product and one general pair.
const AlphaBeta kAllPairs[] = {
    {1.0f, 0.0f}, {1.0f, 1.0f}, {-1.5f, 0.25f}, {0.5f, -2.0f}, {0.0f, 1.0f}};
const AlphaBeta kLargePairs[] = {{1.0f, 0.0f}, {-1.5f, 0.25f}};

std::string describe(const Launcher& l, const Shape& s, const AlphaBeta& ab, int offset) {
  return l.name + " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) +
         " K=" + std::to_string(s.K) + " alpha=" + std::to_string(ab.alpha) +
         " beta=" + std::to_string(ab.beta) + " offset=" + std::to_string(offset);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

cudaError_t Launcher::operator()(gemm::Problem& p, float alpha, float beta) const {
  return sgemm ? sgemm(p.M, p.N, p.K, alpha, p.A.ptr, p.B.ptr, beta, p.C.ptr, nullptr)
               : hgemm(p.M, p.N, p.K, alpha, p.A16.ptr, p.B16.ptr, beta, p.C.ptr, nullptr);
}

// Each shape on aligned buffers (offset 0) and with offset pointers (offset 1: A, B and C one
// element past an aligned address, so the 16-byte path never applies).
void check_shape_matrix(const Launcher& l) {
  const bool fp16 = l.precision == gemm::Precision::FP16;
  std::uint64_t seed = 100;
  for (const Shape& s : kShapes)
    for (const int offset : {0, 1}) {
      gemm::Problem prob(s.M, s.N, s.K, ++seed, fp16, offset);
      const bool small = double(s.M) * s.N * s.K < (1 << 22);
      const AlphaBeta* begin = small ? std::begin(kAllPairs) : std::begin(kLargePairs);
      const AlphaBeta* end = small ? std::end(kAllPairs) : std::end(kLargePairs);
      for (const AlphaBeta* ab = begin; ab != end; ++ab) {
        INFO(describe(l, s, *ab, offset));
        prob.reset_c(ab->beta, nullptr);
        const cudaError_t err = l(prob, ab->alpha, ab->beta);
        INFO("launch: " << cudaGetErrorString(err) << " " << gemm::rejection_reason());
        REQUIRE(err == cudaSuccess);
        // The 16-byte path exactly when K and N are multiples of the vector width and A, B, C
        // 16-byte aligned.
        const bool wide = l.per_16 > 0 && s.K % l.per_16 == 0 && s.N % l.per_16 == 0 &&
                          !offset && (s.K > 0 || !l.wide_needs_k);
        CHECK(gemm::access_path() == (wide ? l.wide_path : l.narrow_path));
        CUDA_CHECK(cudaDeviceSynchronize());
        const gemm::CompareResult r = prob.check_c(l.precision, ab->alpha, ab->beta);
        INFO(gemm::report(r, s.N));
        REQUIRE(r.pass);
      }
    }
}

void check_rejected_arguments(const Launcher& l) {
  gemm::Problem prob(8, 8, 8, 3, l.precision == gemm::Precision::FP16);
  const auto call = [&](int M, int N, int K, bool null_a) {
    if (l.sgemm)
      return l.sgemm(M, N, K, 1.0f, null_a ? nullptr : prob.A.ptr, prob.B.ptr, 0.0f, prob.C.ptr,
                     nullptr);
    return l.hgemm(M, N, K, 1.0f, null_a ? nullptr : prob.A16.ptr, prob.B16.ptr, 0.0f, prob.C.ptr,
                   nullptr);
  };
  prob.reset_c(1.0f, nullptr);
  const std::vector<float> before = prob.C.to_host();

  CHECK(call(-5, 8, 8, false) == cudaErrorInvalidValue);
  CHECK(call(8, -1, 8, false) == cudaErrorInvalidValue);
  CHECK(call(8, 8, -4, false) == cudaErrorInvalidValue);
  CHECK(call(8, 8, 8, true) == cudaErrorInvalidValue);
  // 2^16 x 2^16 elements would overflow the kernels' int indexing: refused, never launched
  // (a launch would run far past these 8x8 buffers).
  CHECK(call(65536, 8, 65536, false) == cudaErrorInvalidValue);
  CHECK(call(8, 65536, 65536, false) == cudaErrorInvalidValue);
  CHECK(call(65536, 65536, 8, false) == cudaErrorInvalidValue);
  CHECK_FALSE(gemm::rejection_reason().empty());
  // Empty problems are not errors and touch nothing.
  CHECK(call(0, 8, 8, false) == cudaSuccess);
  CHECK(call(8, 0, 8, false) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(same_bits(before, prob.C.to_host()));
}

void check_nonfinite_propagation(const Launcher& l) {
  const Shape s{67, 72, 40};  // edge tiles in M and N; N and K fit every vector width
  const bool fp16 = l.precision == gemm::Precision::FP16;
  for (const float bad : {NAN, INFINITY}) {
    gemm::Problem prob(s.M, s.N, s.K, 9, fp16);
    const std::vector<double> clean = prob.reference(l.precision, 1.0f, 0.0f);
    const int bad_row = 40, bad_k = 17;
    const std::size_t at = std::size_t(bad_row) * s.K + bad_k;
    CUDA_CHECK(cudaMemcpy(prob.A.ptr + at, &bad, sizeof bad, cudaMemcpyHostToDevice));
    if (fp16) {
      const __half h = __float2half(bad);
      CUDA_CHECK(cudaMemcpy(prob.A16.ptr + at, &h, sizeof h, cudaMemcpyHostToDevice));
    }
    prob.reset_c(0.0f, nullptr);
    REQUIRE(l(prob, 1.0f, 0.0f) == cudaSuccess);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = prob.C.to_host();
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        const float g = got[std::size_t(i) * s.N + j];
        INFO(l.name << " bad=" << bad << " C[" << i << ", " << j << "] = " << g);
        if (i == bad_row) {
          REQUIRE_FALSE(std::isfinite(g));  // NaN stays NaN; Inf becomes +-Inf or NaN
          if (std::isnan(bad)) REQUIRE(std::isnan(g));
        } else {
          REQUIRE(std::isfinite(g));
        }
      }
    // Rows without the bad element still match the clean reference.
    std::vector<float> rest(got);
    std::vector<double> ref(clean);
    rest.erase(rest.begin() + bad_row * s.N, rest.begin() + (bad_row + 1) * s.N);
    ref.erase(ref.begin() + bad_row * s.N, ref.begin() + (bad_row + 1) * s.N);
    const gemm::Tolerance tol =
        gemm::tolerance_for(l.precision, s.K, gemm::rms(clean.data(), clean.size()));
    const gemm::CompareResult r = gemm::allclose(rest.data(), ref.data(), rest.size(), tol);
    INFO(gemm::report(r, s.N));
    REQUIRE(r.pass);
  }
}

void check_corruption_is_caught(const Launcher& l) {
  const Shape s{129, 136, 72};
  gemm::Problem prob(s.M, s.N, s.K, 11, l.precision == gemm::Precision::FP16);
  prob.reset_c(0.0f, nullptr);
  REQUIRE(l(prob, 1.0f, 0.0f) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<double>& ref = prob.reference(l.precision, 1.0f, 0.0f);
  std::vector<float> got = prob.C.to_host();
  const gemm::Tolerance tol =
      gemm::tolerance_for(l.precision, s.K, gemm::rms(ref.data(), ref.size()));
  REQUIRE(gemm::allclose(got.data(), ref.data(), got.size(), tol).pass);

  const std::size_t bad = got.size() / 2 + 3;
  got[bad] += static_cast<float>(3.0 * (tol.atol + tol.rtol * std::fabs(ref[bad])));
  const gemm::CompareResult r = gemm::allclose(got.data(), ref.data(), got.size(), tol);
  CHECK_FALSE(r.pass);
  CHECK(r.mismatches == 1);
  CHECK(r.first_bad == bad);
}

}  // namespace gemm_tests
