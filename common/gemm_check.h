// Host-side helpers every launcher shares: the argument checks of the chapter contract, the
// reason a launcher gives when it refuses a shape, the choice of the global-access path, and
// ceil_div. Not the lesson of any chapter.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gemm {

// Why the last launcher called on this thread returned cudaErrorInvalidValue. The launchers may
// not print, so the driver and the tests read the sentence from here.
inline std::string& rejection_reason() {
  static thread_local std::string reason;
  return reason;
}

// Records why a launcher refuses its arguments; returns the error the launcher must return.
template <class... Args>
inline cudaError_t reject(const char* format, Args... args) {
  char text[256];
  std::snprintf(text, sizeof text, format, args...);
  rejection_reason() = text;
  return cudaErrorInvalidValue;
}

#ifdef __CUDACC__
__host__ __device__
#endif
    constexpr int
    ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

inline bool aligned_16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Which global-access path the last launcher called on this thread took: "16-byte" or
// "element" (10: "tma", or 09's path). For the driver's report; set by check_gemm_args and
// wide_access.
inline std::string& access_path() {
  static thread_local std::string path;
  return path;
}

// What the last launcher called on this thread wants the driver to say about its launch, in one
// sentence (10: which kernel ran instead, and why); empty: nothing.
inline std::string& launch_note() {
  static thread_local std::string note;
  return note;
}

// How many blocks the launcher gave each tile of C, splitting K among them (07); 1 elsewhere.
inline int& k_splits_launched() {
  static thread_local int splits = 1;
  return splits;
}

// Whether a kernel may move A, B and C in 16-byte pieces of `per_16` elements: every row of
// them must start on a 16-byte boundary (K and N multiples of per_16, the matrices themselves
// 16-byte aligned). Otherwise the launcher runs the same kernel one element per access.
inline bool wide_access(int per_16, int K, int N, const void* A, const void* B, const void* C) {
  const bool wide =
      K % per_16 == 0 && N % per_16 == 0 && aligned_16(A) && aligned_16(B) && aligned_16(C);
  access_path() = wide ? "16-byte" : "element";
  return wide;
}

// The checks of the chapter contract that every launcher runs first: sizes >= 0, every matrix
// at most 2^31 - 1 elements (the kernels index with int), no null pointer for a non-empty matrix.
inline cudaError_t check_gemm_args(int M, int N, int K, const void* A, const void* B,
                                   const void* C) {
  rejection_reason().clear();
  access_path() = "element";
  launch_note().clear();
  k_splits_launched() = 1;
  if (M < 0 || N < 0 || K < 0) return reject("sizes must be >= 0; got M=%d N=%d K=%d", M, N, K);
  const long long m = M, n = N, k = K;
  if (m * k > INT_MAX || k * n > INT_MAX || m * n > INT_MAX)
    return reject(
        "every matrix must have at most 2^31-1 elements (32-bit indexing); got M=%d N=%d K=%d", M,
        N, K);
  if ((m * k > 0 && A == nullptr) || (k * n > 0 && B == nullptr) || (m * n > 0 && C == nullptr))
    return reject("A, B and C must not be null for a non-empty matrix");
  return cudaSuccess;
}

// The row blocks of C go on gridDim.y, which holds at most 65535: a taller C is computed in
// slices of 65535 row blocks, one launch each. launch(first_row, rows) makes the launch for rows
// first_row .. first_row + rows - 1 and returns its error.
template <class Launch>
inline cudaError_t for_each_row_slice(int M, int rows_per_block, Launch&& launch) {
  const long long slice = 65535LL * rows_per_block;
  for (long long row0 = 0; row0 < M; row0 += slice)
    if (cudaError_t err =
            launch(static_cast<int>(row0), static_cast<int>(M - row0 < slice ? M - row0 : slice)))
      return err;
  return cudaSuccess;
}

}  // namespace gemm
