// Command-line options shared by every chapter driver. Pure host code, tested on the CPU.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm {

struct Options {
  int m = 4096, n = 4096, k = 4096;
  float alpha = 1.0f, beta = 0.0f;
  int warmup = 3;          // untimed launches before the timed ones
  int reps = 20;           // timed launches; the report gives their median, min and max
  std::uint64_t seed = 1;  // inputs are a pure function of (seed, element index)
  bool check = true;       // compare against the FP64 reference before timing
  bool cublas = true;      // time cuBLAS in the same run
  std::string variant;     // empty: the chapter's default; "all": every variant
  std::string csv;         // append one row per measured kernel to this file
  std::vector<int> sizes;  // --sizes 256,512: square problems run in turn (overrides m, n, k)
  std::string dump;        // write each checked kernel's inputs, C and reference as .npy here
  int offset = 0;          // A, B and C start this many elements past an aligned address
  bool params = false;     // print the variants' template arguments (JSON) and exit
  bool help = false;
};

// A malformed command line; the message is one sentence, the driver adds the usage line.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Options parse_options(int argc, const char* const* argv);
std::string usage(const std::string& program);

}  // namespace gemm
