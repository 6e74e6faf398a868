// One GEMM problem on the device: seeded inputs, C and its initial value, the FP64 reference,
// and the calls that run, check and time a kernel or cuBLAS on it. Shared by the drivers and the
// GPU tests.
#pragma once

#include "compare.h"
#include "cuda_check.h"
#include "precision.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gemm {

struct LaunchInfo;  // gemm_check.h

// The chapter contract's entry points (chNN::sgemm, chNN::hgemm, chNN::bgemm) ...
using SgemmFn = cudaError_t (*)(int M, int N, int K, float alpha, const float* A, const float* B,
                                float beta, float* C, cudaStream_t stream);
using HgemmFn = cudaError_t (*)(int M, int N, int K, float alpha, const __half* A, const __half* B,
                                float beta, float* C, cudaStream_t stream);
using BgemmFn = cudaError_t (*)(int M, int N, int K, float alpha, const __nv_bfloat16* A,
                                const __nv_bfloat16* B, float beta, float* C, cudaStream_t stream);
// ... and the launchers behind them (chNN::gemm_launch<...>), which also say what they did.
using SgemmLaunch = cudaError_t (*)(int M, int N, int K, float alpha, const float* A,
                                    const float* B, float beta, float* C, cudaStream_t stream,
                                    LaunchInfo* info);
using HgemmLaunch = cudaError_t (*)(int M, int N, int K, float alpha, const __half* A,
                                    const __half* B, float beta, float* C, cudaStream_t stream,
                                    LaunchInfo* info);
using BgemmLaunch = cudaError_t (*)(int M, int N, int K, float alpha, const __nv_bfloat16* A,
                                    const __nv_bfloat16* B, float beta, float* C,
                                    cudaStream_t stream, LaunchInfo* info);

// `count` elements at `ptr`, which lies `offset` elements past the start of the allocation
// (cudaMalloc's, 256-byte aligned): with offset 1 the pointer is aligned to its element only, as
// when a matrix starts one element into a larger allocation.
template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;
  explicit DeviceBuffer(std::size_t n = 0, std::size_t offset = 0) { resize(n, offset); }
  ~DeviceBuffer() { cudaFree(base_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void resize(std::size_t n, std::size_t offset = 0) {
    if (n == count && offset == offset_) return;
    cudaFree(base_);
    base_ = ptr = nullptr;
    count = n;
    offset_ = offset;
    if (n) {
      CUDA_CHECK(cudaMalloc(&base_, (n + offset) * sizeof(T)));
      ptr = base_ + offset;
    }
  }
  std::vector<T> to_host() const;

 private:
  T* base_ = nullptr;
  std::size_t offset_ = 0;
};

// Bytes of GPU memory a checked Problem of this shape needs (inputs, C, C0, FP16 copies, the
// FP64 scratch of the cuBLAS DGEMM reference and two references kept for the checks).
std::size_t problem_bytes(int M, int N, int K, bool fp16_inputs, bool check);

class Problem {
 public:
  // offset: A, B, C (and their FP16 copies) start that many elements past an aligned address.
  Problem(int M, int N, int K, std::uint64_t seed, bool fp16_inputs, int offset = 0);

  int M, N, K, offset;
  DeviceBuffer<float> A, B, C, C0;  // C0: the initial C that beta scales
  DeviceBuffer<__half> A16, B16;    // FP16 roundings of A and B (if fp16_inputs)
  DeviceBuffer<__nv_bfloat16> Abf, Bbf;  // BF16 roundings of A and B (if fp16_inputs)

  // Puts C in its pre-call state: C0 when beta != 0; NaN when beta == 0 (it must not be read, and
  // any element the kernel fails to write stays NaN and fails the check).
  void reset_c(float beta, cudaStream_t stream);

  // The FP64 reference for alpha, beta and these inputs (FP16: their rounded values), kept on the
  // device for the checks; the CPU for at most `cpu_limit` multiply-adds over at most
  // cpu_limit / 16 elements of A, B and C, cuBLAS DGEMM otherwise. Cached per (precision, alpha,
  // beta). This one is a host copy of it.
  const std::vector<double>& reference(Precision p, float alpha, float beta,
                                       double cpu_limit = 1 << 24);

  // Compares C with the reference under tolerance_for(p, K, rms(ref)), on the device: the same
  // rule and result as gemm::allclose on the host, without copying C or the reference back.
  CompareResult check_c(Precision p, float alpha, float beta);

  bool used_cpu_reference() const { return used_cpu_; }

 private:
  struct Ref {
    Precision p;
    float alpha, beta;
    DeviceBuffer<double> device;
    std::vector<double> host;  // filled on first use of reference()
    double rms = 0;
  };
  Ref& ref(Precision p, float alpha, float beta, double cpu_limit);
  std::vector<std::unique_ptr<Ref>> refs_;
  bool used_cpu_ = false;
};

// allclose on device arrays (the check of Problem::check_c); rms is the reference's.
CompareResult allclose_on_device(const float* got, const double* ref, std::size_t n, Tolerance tol);
// The root mean square of the finite elements of a device array, summed in a fixed order.
double rms_on_device(const double* ref, std::size_t n);

// cuBLAS with the math that matches each precision: FP32 (CUBLAS_COMPUTE_32F), TF32
// (CUBLAS_COMPUTE_32F_FAST_TF32) or FP16 inputs with FP32 output and compute. Row-major C = A*B
// is column-major C^T = B^T * A^T, so B goes first.
void cublas_gemm(cublasHandle_t handle, Precision p, const Problem& prob, float alpha, float beta);

// FP64 GEMM on device arrays, row-major; C0 is not read when beta == 0.
void reference_dgemm(cublasHandle_t handle, int M, int N, int K, double alpha, const double* A,
                     const double* B, double beta, double* C);

struct TimingStats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int reps = 0;
  // The SM clock right after each timed launch, measured on the GPU (a probe kernel counts SM
  // cycles against %globaltimer for ~50 us): the median and the lowest.
  double sm_clock_mhz = 0, sm_clock_min_mhz = 0;
  // The host's time inside one call of `launch` (the launcher's work until the launch is queued;
  // the GPU does not wait for it here), median over the timed calls.
  double host_us = 0;
};

// Times `launch` with CUDA events around each launch, after `warmup` untimed ones. Before each
// timed launch the L2 is overwritten with a buffer twice its size, so no input starts in L2;
// after each one, outside its events, the clock probe runs.
TimingStats time_launches(const std::function<void()>& launch, int warmup, int reps,
                          cudaStream_t stream);

// Fills with uniform values in [-1, 1) from (seed, index); the same values as gemm::uniform_pm1.
void fill_uniform(float* p, std::size_t n, std::uint64_t seed, cudaStream_t stream);
void fill_value(float* p, std::size_t n, float value, cudaStream_t stream);

// A host copy of 16-bit device values, each widened to float (exactly).
std::vector<float> widened(const DeviceBuffer<__half>& d);
std::vector<float> widened(const DeviceBuffer<__nv_bfloat16>& d);

// The process-wide cuBLAS handle (created on first use).
cublasHandle_t cublas_handle();

}  // namespace gemm
