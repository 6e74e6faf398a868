#include "../catch_compat.h"

#include "random.h"
#include "reference.h"

#include <cmath>
#include <set>
#include <vector>

TEST_CASE("the CPU reference computes alpha*A*B + beta*C", "[reference]") {
  // A = [1 2 3; 4 5 6], B = [1 0; 0 1; 1 1], A*B = [4 5; 10 11]
  const float A[] = {1, 2, 3, 4, 5, 6}, B[] = {1, 0, 0, 1, 1, 1}, C0[] = {1, 1, 1, 2};
  double out[4];
  gemm::reference_gemm_cpu(2, 2, 3, 2.0, A, B, -1.0, C0, out);
  CHECK(out[0] == 7.0);
  CHECK(out[1] == 9.0);
  CHECK(out[2] == 19.0);
  CHECK(out[3] == 20.0);
}

TEST_CASE("the CPU reference does not read C when beta is 0", "[reference]") {
  const float A[] = {1, 2}, B[] = {3, 4}, C0[] = {NAN};
  double out[1];
  gemm::reference_gemm_cpu(1, 1, 2, 1.0, A, B, 0.0, C0, out);
  CHECK(out[0] == 11.0);
}

TEST_CASE("K = 0 leaves beta * C", "[reference]") {
  const float C0[] = {1.5f, -2.0f};
  double out[2];
  gemm::reference_gemm_cpu(1, 2, 0, 3.0, nullptr, nullptr, 2.0, C0, out);
  CHECK(out[0] == 3.0);
  CHECK(out[1] == -4.0);
}

TEST_CASE("the reference sums in double", "[reference]") {
  // 1 + 2^-30 - 1 loses the small term in float, not in double.
  const float A[] = {1.0f, std::ldexp(1.0f, -30), -1.0f}, B[] = {1, 1, 1};
  double out[1];
  gemm::reference_gemm_cpu(1, 1, 3, 1.0, A, B, 0.0, nullptr, out);
  CHECK(out[0] == std::ldexp(1.0, -30));
}

TEST_CASE("seeded inputs are uniform in -1 to 1 (1 excluded) and depend on seed and index",
          "[random]") {
  std::set<float> seen;
  double sum = 0.0;
  for (int i = 0; i < 10000; ++i) {
    const float v = gemm::uniform_pm1(7, i);
    REQUIRE(v >= -1.0f);
    REQUIRE(v < 1.0f);
    seen.insert(v);
    sum += v;
  }
  CHECK(seen.size() > 9900);
  CHECK(std::fabs(sum / 10000) < 0.03);
  CHECK(gemm::uniform_pm1(7, 5) == gemm::uniform_pm1(7, 5));
  CHECK(gemm::uniform_pm1(7, 5) != gemm::uniform_pm1(8, 5));
}
