// Host-side helpers every launcher shares: the argument checks of the chapter contract, the
// launch report a caller may ask for, the choice of the global-access path, and ceil_div. Not
// the lesson of any chapter.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gemm {

// What a launcher says about one call, filled in when the caller passes a LaunchInfo (the
// chapter drivers and the tests do; the contract's entry points pass none). Launchers may not
// print, so this is how a sentence reaches the reader.
struct LaunchInfo {
  std::string access = "element";  // global accesses: "16-byte", "element", "tma", "tma staged"
  int k_splits = 1;                // blocks per tile of C that split K among them
  std::string note;                // one sentence about what the launch did, or ""
  std::string why;                 // why the call was refused (cudaErrorInvalidValue), or ""
  // The kernel that ran, where the launcher chooses among several (19 on): the report gives its
  // registers, shared memory and occupancy.
  const void* kernel = nullptr;
  int kernel_threads = 0;
  std::size_t kernel_smem = 0;
};

// Records why a launcher refuses its arguments; returns the error the launcher must return.
template <class... Args>
inline cudaError_t reject(LaunchInfo* info, const char* format, Args... args) {
  if (info) {
    char text[256];
    if constexpr (sizeof...(Args) == 0)
      std::snprintf(text, sizeof text, "%s", format);
    else
      std::snprintf(text, sizeof text, format, args...);
    info->why = text;
  }
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

// Whether a kernel may move A, B and C in 16-byte pieces of `per_16` elements: every row of
// them must start on a 16-byte boundary (K and N multiples of per_16, the matrices themselves
// 16-byte aligned). Otherwise the launcher runs the same kernel one element per access.
inline bool wide_access(int per_16, int K, int N, const void* A, const void* B, const void* C,
                        LaunchInfo* info) {
  const bool wide =
      K % per_16 == 0 && N % per_16 == 0 && aligned_16(A) && aligned_16(B) && aligned_16(C);
  if (info) info->access = wide ? "16-byte" : "element";
  return wide;
}

// The checks of the chapter contract that every launcher runs first: sizes >= 0, every matrix
// at most 2^31 - 1 elements (the kernels index with int), no null pointer for a non-empty matrix.
inline cudaError_t check_gemm_args(int M, int N, int K, const void* A, const void* B, const void* C,
                                   LaunchInfo* info) {
  if (info) *info = LaunchInfo{};
  if (M < 0 || N < 0 || K < 0)
    return reject(info, "sizes must be >= 0; got M=%d N=%d K=%d", M, N, K);
  const long long m = M, n = N, k = K;
  if (m * k > INT_MAX || k * n > INT_MAX || m * n > INT_MAX)
    return reject(info,
                  "every matrix must have at most 2^31-1 elements (32-bit indexing); got M=%d "
                  "N=%d K=%d",
                  M, N, K);
  if ((m * k > 0 && A == nullptr) || (k * n > 0 && B == nullptr) || (m * n > 0 && C == nullptr))
    return reject(info, "A, B and C must not be null for a non-empty matrix");
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

// The rule for small problems: a C of at most half as many tiles as the GPU holds blocks at once
// would leave SMs idle, so each tile's K is split among resident_blocks / tiles blocks, in chunks
// of at least 128 values of k (the last chunk takes what is left), which add their sums into C.
inline int k_splits(long long tiles, int K, long long resident_blocks) {
  const long long splits = std::min<long long>(resident_blocks / std::max(tiles, 1LL), K / 128);
  return static_cast<int>(std::max(splits, 1LL));
}

// Raises a kernel's limit of dynamic shared memory to smem (a launch with more than 48 KB must
// ask) and says how many of its blocks fit on an SM at once.
template <class Kernel>
cudaError_t dynamic_smem(Kernel kernel, int threads, std::size_t smem, int& blocks_per_sm) {
  if (cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)))
    return err;
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads, smem);
}

// The SMs of the current device.
inline cudaError_t sm_count(int& sms) {
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device)) return err;
  return cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
}

}  // namespace gemm
