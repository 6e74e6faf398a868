// What bench/mma_peak.cu and bench/wgmma_peak.cu share: operand bits that look like a GEMM's data,
// the SM clock measured inside the kernel, the timing (CUDA events around one launch after a
// warm-up, median of 5), and the command line and output (--csv FILE).
#pragma once

#include "cuda_check.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace ceiling {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// Operand bits that look like the data of a real GEMM (uniform in [-1, 1) in FP16 or TF32): the
// tensor cores' power, and so the clock, depend on how many bits toggle.
__device__ __forceinline__ unsigned operand(unsigned seed, bool tf32) {
  unsigned h = seed * 2654435761u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  if (tf32) return (h & 0x807fe000u) | 0x3f000000u;  // +-[0.5, 1), 10 mantissa bits
  return (h & 0x83ff83ffu) | 0x38003800u;            // two halves in +-[0.5, 1)
}

struct Timing {
  double ms = 0.0;   // the median of 5 launches
  double mhz = 0.0;  // the highest SM clock block 0 measured over them
};

// launch() once to warm up, then 5 times between CUDA events. The kernel leaves in clocks[0] and
// clocks[1] the cycles and nanoseconds block 0 took (clock64 against %globaltimer), so that the
// clock is the one held under this load, not the boost clock the peak tables assume.
template <class Launch>
Timing time_launches(Launch launch, const unsigned long long* clocks) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  launch();
  CUDA_CHECK(cudaGetLastError());
  std::vector<float> ms;
  Timing t;
  for (int rep = 0; rep < 5; ++rep) {
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float elapsed = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
    ms.push_back(elapsed);
    unsigned long long c[2] = {};
    CUDA_CHECK(cudaMemcpy(c, clocks, sizeof(c), cudaMemcpyDeviceToHost));
    t.mhz = std::max(t.mhz, 1e3 * static_cast<double>(c[0]) / static_cast<double>(c[1]));
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  t.ms = ms[2];
  return t;
}

// The one flag, --csv FILE; anything else: a sentence with the usage, and false (exit code 2).
inline bool parse_args(int argc, char** argv, const char* prog, std::string& csv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
      csv = argv[++i];
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s'; usage: %s [--csv FILE]\n", prog, argv[i],
                   prog);
      return false;
    }
  }
  return true;
}

// The title line (# ...), the CSV header and the lines on stdout, the header and lines into csv
// (if given); false, with a sentence, when csv cannot be written.
inline bool write_rows(const char* prog, const std::string& csv, const std::string& title,
                       const char* header, const std::vector<std::string>& lines) {
  std::FILE* f = csv.empty() ? nullptr : std::fopen(csv.c_str(), "w");
  if (!csv.empty() && !f) {
    std::fprintf(stderr, "%s: cannot write %s\n", prog, csv.c_str());
    return false;
  }
  std::printf("# %s\n%s", title.c_str(), header);
  if (f) std::fputs(header, f);
  for (const std::string& line : lines) {
    std::fputs(line.c_str(), stdout);
    if (f) std::fputs(line.c_str(), f);
  }
  if (f) std::fclose(f);
  return true;
}

}  // namespace ceiling
