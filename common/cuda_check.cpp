#include "cuda_check.h"

#include <sstream>

namespace gemm {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  std::ostringstream msg;
  msg << file << ":" << line << ": " << call << " failed: " << cudaGetErrorName(err) << " ("
      << cudaGetErrorString(err) << ")";
  throw CudaError(msg.str());
}

void throw_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  std::ostringstream msg;
  msg << file << ":" << line << ": " << call << " failed: " << cublasGetStatusName(status) << " ("
      << cublasGetStatusString(status) << ")";
  throw CudaError(msg.str());
}

}  // namespace gemm
