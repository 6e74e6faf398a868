// Seeded inputs that are a pure function of (seed, index): the device fills matrices with it and
// the CPU tests can recompute any element. Values are uniform in [-1, 1).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define GEMM_HOST_DEVICE __host__ __device__
#else
#define GEMM_HOST_DEVICE
#endif

namespace gemm {

GEMM_HOST_DEVICE inline float uniform_pm1(std::uint64_t seed, std::uint64_t index) {
  // splitmix64 of (seed, index); the top 24 bits give a float in [0, 1) exactly.
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace gemm
