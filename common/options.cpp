#include "options.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <algorithm>

namespace gemm {
namespace {

long long parse_integer(const std::string& flag, const std::string& text, long long lo,
                        long long hi) {
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE)
    throw UsageError(flag + " expects an integer; got '" + text + "'");
  if (value < lo || value > hi)
    throw UsageError(flag + " must be between " + std::to_string(lo) + " and " +
                     std::to_string(hi) + "; got " + text);
  return value;
}

float parse_float(const std::string& flag, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const float value = std::strtof(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
    throw UsageError(flag + " expects a finite number; got '" + text + "'");
  return value;
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i], value;
    bool has_value = false;
    if (const auto eq = flag.find('='); eq != std::string::npos && flag.rfind("--", 0) == 0) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    static const char* const switches[] = {"--no-check", "--no-cublas", "--params", "--help", "-h"};
    static const char* const valued[] = {"--m",    "-m",      "--n",       "-n",     "--k",
                                         "-k",     "--size",  "--alpha",   "--beta", "--warmup",
                                         "--reps", "--seed",  "--variant", "--csv",  "--sizes",
                                         "--dump", "--offset"};
    const auto known = [&](const auto& list) {
      for (const char* f : list)
        if (flag == f) return true;
      return false;
    };
    if (known(switches)) {
      if (has_value) throw UsageError(flag + " takes no value");
    } else if (!known(valued)) {
      throw UsageError("unknown option '" + flag + "'");
    } else if (!has_value) {
      if (i + 1 >= argc) throw UsageError(flag + " needs a value");
      value = argv[++i];
    }
    if (flag == "--m" || flag == "-m") {
      opt.m = static_cast<int>(parse_integer(flag, value, 0, INT_MAX));
    } else if (flag == "--n" || flag == "-n") {
      opt.n = static_cast<int>(parse_integer(flag, value, 0, INT_MAX));
    } else if (flag == "--k" || flag == "-k") {
      opt.k = static_cast<int>(parse_integer(flag, value, 0, INT_MAX));
    } else if (flag == "--size") {
      opt.m = opt.n = opt.k = static_cast<int>(parse_integer(flag, value, 0, INT_MAX));
    } else if (flag == "--sizes") {
      opt.sizes.clear();
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        opt.sizes.push_back(
            static_cast<int>(parse_integer(flag, value.substr(start, comma - start), 1, INT_MAX)));
        start = comma + 1;
      }
    } else if (flag == "--alpha") {
      opt.alpha = parse_float(flag, value);
    } else if (flag == "--beta") {
      opt.beta = parse_float(flag, value);
    } else if (flag == "--warmup") {
      opt.warmup = static_cast<int>(parse_integer(flag, value, 0, 100000));
    } else if (flag == "--reps") {
      opt.reps = static_cast<int>(parse_integer(flag, value, 1, 100000));
    } else if (flag == "--seed") {
      opt.seed = static_cast<std::uint64_t>(parse_integer(flag, value, 0, LLONG_MAX));
    } else if (flag == "--variant") {
      if (value.empty()) throw UsageError("--variant needs a name");
      opt.variant = value;
    } else if (flag == "--csv") {
      if (value.empty()) throw UsageError("--csv needs a file name");
      opt.csv = value;
    } else if (flag == "--dump") {
      if (value.empty()) throw UsageError("--dump needs a folder name");
      opt.dump = value;
    } else if (flag == "--offset") {
      opt.offset = static_cast<int>(parse_integer(flag, value, 0, 64));
    } else if (flag == "--no-check") {
      opt.check = false;
    } else if (flag == "--no-cublas") {
      opt.cublas = false;
    } else if (flag == "--params") {
      opt.params = true;
    } else {
      opt.help = true;
    }
  }
  // The dump is of the checked run: without the check there is no reference to write.
  if (!opt.dump.empty() && !opt.check)
    throw UsageError("--dump writes the checked run, so it cannot go with --no-check");
  return opt;
}

std::string usage(const std::string& program) {
  return "usage: " + program +
         " [--size S | --sizes S1,S2,.. | --m M --n N --k K] [--alpha A] [--beta B]\n"
         "       [--variant NAME|all]"
         " [--reps R] [--warmup W] [--seed S] [--no-check] [--no-cublas] [--csv FILE]\n"
         "       [--dump DIR] [--offset E] [--params]\n"
         "  C = alpha * A * B + beta * C, row-major, A is MxK, B is KxN (default 4096^3,\n"
         "  alpha 1, beta 0, 20 timed reps after 3 warm-ups, checked against an FP64 reference)\n"
         "  --offset E: A, B and C start E elements past an aligned address (E not a multiple\n"
         "  of 4 floats or 8 halves: the kernels take their element-by-element path)\n"
         "  --dump DIR: each checked kernel's A, B, C before and after, and reference as .npy in\n"
         "  DIR/<variant>_<M>x<N>x<K>/ with meta.json, for scripts/check_npy.py DIR\n"
         "  --params: print every variant's template arguments as JSON and exit (no GPU needed)";
}

}  // namespace gemm
