#include "../catch_compat.h"

#include "compare.h"
#include "random.h"
#include "reference.h"

#include <cmath>
#include <vector>

namespace {

// A correct FP32 result: the FP64 reference rounded to float.
struct Case {
  int M = 33, N = 17, K = 65;
  std::vector<float> a, b, got;
  std::vector<double> ref;
  Case() : a(M * K), b(K * N), got(M * N), ref(M * N) {
    for (int i = 0; i < M * K; ++i)
      a[i] = gemm::uniform_pm1(1, i);
    for (int i = 0; i < K * N; ++i)
      b[i] = gemm::uniform_pm1(2, i);
    gemm::reference_gemm_cpu(M, N, K, 1.0, a.data(), b.data(), 0.0, nullptr, ref.data());
    for (int i = 0; i < M * N; ++i)
      got[i] = static_cast<float>(ref[i]);
  }
  gemm::Tolerance tol() const {
    return gemm::tolerance_for(gemm::Precision::FP32, K, gemm::rms(ref.data(), ref.size()));
  }
  gemm::CompareResult check() const {
    return gemm::allclose(got.data(), ref.data(), got.size(), tol());
  }
};

}  // namespace

TEST_CASE("a correct result passes", "[compare]") {
  Case c;
  const gemm::CompareResult r = c.check();
  CHECK(r.pass);
  CHECK(r.mismatches == 0);
  CHECK(r.worst_ratio < 1.0);
}

TEST_CASE("one corrupted element fails, and the report points at it", "[compare]") {
  Case c;
  const int bad = 2 * c.N + 5;  // C[2, 5]
  const gemm::Tolerance t = c.tol();
  c.got[bad] += static_cast<float>(2.0 * (t.atol + t.rtol * std::fabs(c.ref[bad])));
  const gemm::CompareResult r = c.check();
  CHECK_FALSE(r.pass);
  CHECK(r.mismatches == 1);
  CHECK(r.first_bad == static_cast<std::size_t>(bad));
  const std::string text = gemm::report(r, c.N);
  CHECK(text.find("Mismatched elements: 1 / 561") != std::string::npos);
  CHECK(text.find("C[2, 5]") != std::string::npos);
  CHECK(text.find("Max absolute difference") != std::string::npos);
}

TEST_CASE("an error just inside the tolerance passes, just outside fails", "[compare]") {
  Case c;
  const gemm::Tolerance t = c.tol();
  const double bound = t.atol + t.rtol * std::fabs(c.ref[7]);
  c.ref[7] = c.got[7];
  c.got[7] = static_cast<float>(c.ref[7] + 0.9 * bound);
  CHECK(c.check().pass);
  c.got[7] = static_cast<float>(c.ref[7] + 1.1 * bound);
  CHECK_FALSE(c.check().pass);
}

TEST_CASE("NaN and Inf never pass, even where the reference has them", "[compare]") {
  Case c;
  c.got[3] = NAN;
  CHECK_FALSE(c.check().pass);
  c.ref[3] = NAN;
  CHECK_FALSE(c.check().pass);
  Case d;
  d.got[0] = INFINITY;
  d.ref[0] = INFINITY;
  CHECK_FALSE(d.check().pass);
  Case e;
  e.got.assign(e.got.size(), NAN);  // an unwritten, NaN-poisoned C
  const gemm::CompareResult r = e.check();
  CHECK(r.mismatches == r.total);
}

TEST_CASE("the tolerance grows with K for FP32 and is wider for TF32", "[compare]") {
  using gemm::Precision;
  const gemm::Tolerance small = gemm::tolerance_for(Precision::FP32, 64, 1.0);
  const gemm::Tolerance large = gemm::tolerance_for(Precision::FP32, 4096, 1.0);
  CHECK(large.rtol == Approx(8 * small.rtol));  // sqrt(4096 / 64)
  CHECK(large.atol == Approx(large.rtol));      // atol = rtol * rms, rms = 1 here
  CHECK(large.rtol == Approx(16 * std::ldexp(1.0, -24) * 64));
  CHECK(gemm::tolerance_for(Precision::TF32, 4096, 1.0).rtol > 50 * large.rtol);
  CHECK(gemm::tolerance_for(Precision::FP16, 4096, 1.0).rtol == Approx(large.rtol));
  CHECK(gemm::tolerance_for(Precision::FP32, 4096, 21.0).atol == Approx(21 * large.rtol));
}

TEST_CASE("FP16 and BF16: the FP32 accumulation's tolerance, the rounded inputs' reference",
          "[compare]") {
  using gemm::Precision;
  // The reference sees the rounded inputs and their products are exact in FP32 (11 x 11 and
  // 8 x 8 significant bits): only the accumulation's bound remains, as for FP32.
  for (const int K : {1, 72, 4096, 100000}) {
    const gemm::Tolerance fp32 = gemm::tolerance_for(Precision::FP32, K, 3.0);
    for (const Precision p : {Precision::FP16, Precision::BF16}) {
      INFO(gemm::to_string(p) << " K=" << K);
      CHECK(gemm::tolerance_for(p, K, 3.0).rtol == fp32.rtol);
      CHECK(gemm::tolerance_for(p, K, 3.0).atol == fp32.atol);
    }
  }
  CHECK(gemm::sixteen_bit(Precision::FP16));
  CHECK(gemm::sixteen_bit(Precision::BF16));
  CHECK_FALSE(gemm::sixteen_bit(Precision::FP32));
  CHECK_FALSE(gemm::sixteen_bit(Precision::TF32));
}

TEST_CASE("precision names, as the report, the CSV and the scripts spell them", "[compare]") {
  using gemm::Precision;
  CHECK(gemm::to_string(Precision::FP32) == "fp32");
  CHECK(gemm::to_string(Precision::TF32) == "tf32");
  CHECK(gemm::to_string(Precision::FP16) == "fp16");
  CHECK(gemm::to_string(Precision::BF16) == "bf16");
}

TEST_CASE("rms skips non-finite values", "[compare]") {
  const double v[] = {3.0, -4.0, NAN};
  CHECK(gemm::rms(v, 2) == Approx(std::sqrt(12.5)));
  CHECK(gemm::rms(v, 3) == Approx(std::sqrt(12.5)));
}
