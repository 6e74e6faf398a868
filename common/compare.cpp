#include "compare.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace gemm {

Tolerance tolerance_for(Precision p, int K, double ref_rms) {
  const double u_acc = std::ldexp(1.0, -24);
  const double u_in = p == Precision::TF32 ? std::ldexp(1.0, -11) : 0.0;
  Tolerance t;
  t.rtol = 16.0 * (u_in + u_acc * std::sqrt(static_cast<double>(K > 1 ? K : 1)));
  t.atol = t.rtol * ref_rms;
  return t;
}

double rms(const double* ref, std::size_t n) {
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(ref[i])) continue;
    sum += ref[i] * ref[i];
    ++count;
  }
  return count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

CompareResult allclose(const float* got, const double* ref, std::size_t n, Tolerance tol) {
  CompareResult r;
  r.total = n;
  r.tol = tol;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = got[i], e = ref[i];
    bool ok;
    if (!std::isfinite(g) || !std::isfinite(e)) {
      ok = false;
      r.worst_ratio = INFINITY;
    } else {
      const double diff = std::fabs(g - e);
      const double bound = tol.atol + tol.rtol * std::fabs(e);
      ok = diff <= bound;
      if (diff > r.max_abs) r.max_abs = diff;
      if (e != 0.0 && diff / std::fabs(e) > r.max_rel) r.max_rel = diff / std::fabs(e);
      const double ratio = bound > 0.0 ? diff / bound : (diff > 0.0 ? INFINITY : 0.0);
      if (ratio > r.worst_ratio) r.worst_ratio = ratio;
    }
    if (!ok) {
      if (r.mismatches == 0) {
        r.first_bad = i;
        r.first_got = g;
        r.first_ref = e;
      }
      ++r.mismatches;
    }
  }
  r.pass = r.mismatches == 0;
  return r;
}

std::string report(const CompareResult& r, int cols) {
  std::ostringstream out;
  char line[256];
  std::snprintf(line, sizeof line,
                "Not equal to tolerance rtol=%.3g, atol=%.3g (|got - ref| <= atol + rtol*|ref|)\n",
                r.tol.rtol, r.tol.atol);
  out << line;
  std::snprintf(line, sizeof line, "Mismatched elements: %zu / %zu (%.3g%%)\n", r.mismatches,
                r.total, r.total ? 100.0 * r.mismatches / r.total : 0.0);
  out << line;
  std::snprintf(line, sizeof line, "Max absolute difference: %.6g\nMax relative difference: %.6g\n",
                r.max_abs, r.max_rel);
  out << line;
  if (r.mismatches > 0) {
    const std::size_t c = cols > 0 ? static_cast<std::size_t>(cols) : 1;
    std::snprintf(line, sizeof line, "First mismatch at C[%zu, %zu]: got %.9g, expected %.9g",
                  r.first_bad / c, r.first_bad % c, r.first_got, r.first_ref);
    out << line;
  }
  return out.str();
}

}  // namespace gemm
