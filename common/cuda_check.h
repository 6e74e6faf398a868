// Error checking for every CUDA runtime and cuBLAS call made by the harness and the tests.
// A failure throws gemm::CudaError whose message names the file, the line, the call and the
// error; the drivers turn it into one line on stderr and exit code 1.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gemm {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas_error(cublasStatus_t status, const char* call, const char* file,
                                     int line);

}  // namespace gemm

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    const cudaError_t gemm_err_ = (call);                                                         \
    if (gemm_err_ != cudaSuccess) ::gemm::throw_cuda_error(gemm_err_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUBLAS_CHECK(call)                                                 \
  do {                                                                     \
    const cublasStatus_t gemm_status_ = (call);                            \
    if (gemm_status_ != CUBLAS_STATUS_SUCCESS)                             \
      ::gemm::throw_cublas_error(gemm_status_, #call, __FILE__, __LINE__); \
  } while (0)
