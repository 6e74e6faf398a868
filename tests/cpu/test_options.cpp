#include "../catch_compat.h"

#include "options.h"

#include <string>
#include <vector>

namespace {

gemm::Options parse(std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());
  return gemm::parse_options(static_cast<int>(argv.size()), argv.data());
}

std::string error_of(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const gemm::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("defaults are 4096^3, alpha 1, beta 0, checked", "[options]") {
  const gemm::Options o = parse({});
  CHECK(o.m == 4096);
  CHECK(o.n == 4096);
  CHECK(o.k == 4096);
  CHECK(o.alpha == 1.0f);
  CHECK(o.beta == 0.0f);
  CHECK(o.check);
  CHECK(o.cublas);
  CHECK(o.reps >= 1);
}

TEST_CASE("sizes, scalars and switches parse in both spellings", "[options]") {
  gemm::Options o = parse({"--size", "2048", "--n=1000", "--alpha", "-1.5", "--beta=0.25", "--reps",
                           "7", "--warmup", "0", "--seed", "42", "--no-check", "--no-cublas",
                           "--variant", "all", "--csv", "out.csv"});
  CHECK(o.m == 2048);
  CHECK(o.n == 1000);
  CHECK(o.k == 2048);
  CHECK(o.alpha == -1.5f);
  CHECK(o.beta == 0.25f);
  CHECK(o.reps == 7);
  CHECK(o.warmup == 0);
  CHECK(o.seed == 42);
  CHECK_FALSE(o.check);
  CHECK_FALSE(o.cublas);
  CHECK(o.variant == "all");
  CHECK(o.csv == "out.csv");
  CHECK(parse({"--m", "0"}).m == 0);
  CHECK(parse({"--help"}).help);
  CHECK(parse({}).offset == 0);
  CHECK(parse({"--offset", "1"}).offset == 1);
}

TEST_CASE("an offset is a small count of elements", "[options]") {
  CHECK(error_of({"--offset", "-1"}) == "--offset must be between 0 and 64; got -1");
  CHECK(error_of({"--offset", "65"}) == "--offset must be between 0 and 64; got 65");
  CHECK(error_of({"--offset", "x"}) == "--offset expects an integer; got 'x'");
}

TEST_CASE("malformed flags give one clear sentence", "[options]") {
  CHECK(error_of({"--m", "-5"}) == "--m must be between 0 and 2147483647; got -5");
  CHECK(error_of({"--m", "abc"}) == "--m expects an integer; got 'abc'");
  CHECK(error_of({"--k", "12x"}) == "--k expects an integer; got '12x'");
  CHECK(error_of({"--m", "99999999999"}).find("must be between") != std::string::npos);
  CHECK(error_of({"--frobnicate"}) == "unknown option '--frobnicate'");
  CHECK(error_of({"--m"}) == "--m needs a value");
  CHECK(error_of({"--reps", "0"}) == "--reps must be between 1 and 100000; got 0");
  CHECK(error_of({"--alpha", "nan"}) == "--alpha expects a finite number; got 'nan'");
  CHECK(error_of({"--beta", ""}) == "--beta expects a finite number; got ''");
  CHECK(error_of({"--variant="}) == "--variant needs a name");
}

TEST_CASE("the --sizes flag takes a comma-separated list of positive sizes", "[options]") {
  CHECK(parse({"--sizes", "256,512,1000"}).sizes == std::vector<int>{256, 512, 1000});
  CHECK(parse({"--sizes=64"}).sizes == std::vector<int>{64});
  CHECK(parse({}).sizes.empty());
  CHECK(error_of({"--sizes", "256,,512"}) == "--sizes expects an integer; got ''");
  CHECK(error_of({"--sizes", "256,0"}) == "--sizes must be between 1 and 2147483647; got 0");
  CHECK(error_of({"--sizes", "256,x"}) == "--sizes expects an integer; got 'x'");
}

TEST_CASE("the usage line names every flag", "[options]") {
  const std::string u = gemm::usage("01_naive");
  for (const char* flag :
       {"--size", "--sizes", "--m", "--n", "--k", "--alpha", "--beta", "--variant", "--reps",
        "--warmup", "--seed", "--no-check", "--no-cublas", "--csv", "--dump"})
    CHECK(u.find(flag) != std::string::npos);
}

TEST_CASE("the --dump flag takes a folder for the numpy cross-check", "[options]") {
  CHECK(parse({}).dump.empty());
  CHECK(parse({"--dump", "/tmp/d"}).dump == "/tmp/d");
  CHECK(parse({"--dump=out/dumps", "--size", "64"}).dump == "out/dumps");
  CHECK(error_of({"--dump"}) == "--dump needs a value");
  CHECK(error_of({"--dump="}) == "--dump needs a folder name");
  CHECK(error_of({"--dump", "d", "--no-check"}) ==
        "--dump writes the checked run, so it cannot go with --no-check");
  CHECK(gemm::usage("01_naive").find("--dump DIR") != std::string::npos);
}
