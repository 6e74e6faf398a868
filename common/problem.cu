#include "problem.h"

#include "random.h"
#include "reference.h"

#include <algorithm>
#include <cmath>

namespace gemm {
namespace {

constexpr std::uint64_t kTagA = 0xA, kTagB = 0xB, kTagC = 0xC;

__global__ void fill_uniform_kernel(float* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = uniform_pm1(seed, i);
}

__global__ void fill_value_kernel(float* p, std::size_t n, float value) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = value;
}

__global__ void round_to_half_kernel(const float* in, __half* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = __float2half_rn(in[i]);
}

template <class T>
__global__ void to_double_kernel(const T* in, double* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<double>(static_cast<float>(in[i]));
}

unsigned grid_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65535));
}

template <class T>
void to_double(const T* in, double* out, std::size_t n) {
  if (n == 0) return;
  to_double_kernel<<<grid_for(n), 256>>>(in, out, n);
  CUDA_CHECK(cudaGetLastError());
}

std::size_t count(long long a, long long b) {
  return static_cast<std::size_t>(a * b);
}

}  // namespace

template <class T>
std::vector<T> DeviceBuffer<T>::to_host() const {
  std::vector<T> h(count);
  if (count) CUDA_CHECK(cudaMemcpy(h.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
template struct DeviceBuffer<float>;
template struct DeviceBuffer<double>;
template struct DeviceBuffer<__half>;

void fill_uniform(float* p, std::size_t n, std::uint64_t seed, cudaStream_t stream) {
  if (n == 0) return;
  fill_uniform_kernel<<<grid_for(n), 256, 0, stream>>>(p, n, seed);
  CUDA_CHECK(cudaGetLastError());
}

void fill_value(float* p, std::size_t n, float value, cudaStream_t stream) {
  if (n == 0) return;
  fill_value_kernel<<<grid_for(n), 256, 0, stream>>>(p, n, value);
  CUDA_CHECK(cudaGetLastError());
}

cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    CUBLAS_CHECK(cublasCreate(&h));
    return h;
  }();
  return handle;
}

std::size_t problem_bytes(int M, int N, int K, bool fp16_inputs, bool check) {
  const std::size_t mk = count(M, K), kn = count(K, N), mn = count(M, N);
  std::size_t bytes = 4 * (mk + kn + 2 * mn);
  if (fp16_inputs) bytes += 2 * (mk + kn);
  if (check) bytes += 8 * (mk + kn + mn);
  return bytes;
}

Problem::Problem(int M_, int N_, int K_, std::uint64_t seed, bool fp16_inputs, int offset_)
    : M(M_),
      N(N_),
      K(K_),
      offset(offset_),
      A(count(M_, K_), offset_),
      B(count(K_, N_), offset_),
      C(count(M_, N_), offset_),
      C0(count(M_, N_)) {
  fill_uniform(A.ptr, A.count, seed ^ (kTagA << 56), nullptr);
  fill_uniform(B.ptr, B.count, seed ^ (kTagB << 56), nullptr);
  fill_uniform(C0.ptr, C0.count, seed ^ (kTagC << 56), nullptr);
  if (fp16_inputs) {
    A16.resize(A.count, offset);
    B16.resize(B.count, offset);
    if (A.count) round_to_half_kernel<<<grid_for(A.count), 256>>>(A.ptr, A16.ptr, A.count);
    CUDA_CHECK(cudaGetLastError());
    if (B.count) round_to_half_kernel<<<grid_for(B.count), 256>>>(B.ptr, B16.ptr, B.count);
    CUDA_CHECK(cudaGetLastError());
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

void Problem::reset_c(float beta, cudaStream_t stream) {
  if (beta == 0.0f) {
    fill_value(C.ptr, C.count, NAN, stream);
  } else if (C.count) {
    CUDA_CHECK(
        cudaMemcpyAsync(C.ptr, C0.ptr, C.count * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  }
}

const std::vector<double>& Problem::reference(Precision p, float alpha, float beta,
                                              double cpu_limit) {
  // TF32 rounding happens inside the kernel; its reference is the exact FP32 problem.
  const bool half = p == Precision::FP16;
  for (const Ref& r : refs_)
    if ((r.p == Precision::FP16) == half && r.alpha == alpha && r.beta == beta) return r.values;

  std::vector<double> values(C.count);
  const double macs = double(M) * N * K;
  if (macs <= cpu_limit) {
    used_cpu_ = true;
    std::vector<float> a, b;
    if (half) {
      const std::vector<__half> a16 = A16.to_host(), b16 = B16.to_host();
      a.assign(a16.size(), 0.0f);
      b.assign(b16.size(), 0.0f);
      std::transform(a16.begin(), a16.end(), a.begin(), [](__half h) { return __half2float(h); });
      std::transform(b16.begin(), b16.end(), b.begin(), [](__half h) { return __half2float(h); });
    } else {
      a = A.to_host();
      b = B.to_host();
    }
    const std::vector<float> c0 = C0.to_host();
    reference_gemm_cpu(M, N, K, alpha, a.data(), b.data(), beta, c0.data(), values.data());
  } else {
    DeviceBuffer<double> a(A.count), b(B.count), c(C.count);
    if (half) {
      to_double(A16.ptr, a.ptr, A.count);
      to_double(B16.ptr, b.ptr, B.count);
    } else {
      to_double(A.ptr, a.ptr, A.count);
      to_double(B.ptr, b.ptr, B.count);
    }
    to_double(C0.ptr, c.ptr, C.count);
    // The handle is shared with the timed cuBLAS runs: borrow it on the default stream and give
    // it back on the caller's stream, or later launches would escape the caller's events.
    cudaStream_t caller = nullptr;
    CUBLAS_CHECK(cublasGetStream(cublas_handle(), &caller));
    CUBLAS_CHECK(cublasSetStream(cublas_handle(), nullptr));
    reference_dgemm(cublas_handle(), M, N, K, alpha, a.ptr, b.ptr, beta, c.ptr);
    CUBLAS_CHECK(cublasSetStream(cublas_handle(), caller));
    CUDA_CHECK(cudaDeviceSynchronize());
    values = c.to_host();
  }
  refs_.push_back({p, alpha, beta, std::move(values)});
  return refs_.back().values;
}

CompareResult Problem::check_c(Precision p, float alpha, float beta) {
  const std::vector<double>& ref = reference(p, alpha, beta);
  const std::vector<float> got = C.to_host();
  return allclose(got.data(), ref.data(), got.size(),
                  tolerance_for(p, K, rms(ref.data(), ref.size())));
}

void reference_dgemm(cublasHandle_t handle, int M, int N, int K, double alpha, const double* A,
                     const double* B, double beta, double* C) {
  if (M == 0 || N == 0) return;
  CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A,
                           std::max(1, K), &beta, C, N));
}

void cublas_gemm(cublasHandle_t handle, Precision p, const Problem& prob, float alpha, float beta) {
  const int M = prob.M, N = prob.N, K = prob.K;
  if (M == 0 || N == 0) return;
  const void* a = p == Precision::FP16 ? static_cast<const void*>(prob.A16.ptr) : prob.A.ptr;
  const void* b = p == Precision::FP16 ? static_cast<const void*>(prob.B16.ptr) : prob.B.ptr;
  const cudaDataType_t in_type = p == Precision::FP16 ? CUDA_R_16F : CUDA_R_32F;
  const cublasComputeType_t compute =
      p == Precision::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, b, in_type, N, a,
                            in_type, std::max(1, K), &beta, prob.C.ptr, CUDA_R_32F, N, compute,
                            CUBLAS_GEMM_DEFAULT));
}

TimingStats time_launches(const std::function<void()>& launch, int warmup, int reps,
                          cudaStream_t stream) {
  int device = 0, l2 = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  DeviceBuffer<char> flush(std::max<std::size_t>(2 * static_cast<std::size_t>(l2), 1 << 20));

  for (int i = 0; i < warmup; ++i)
    launch();
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&start[i]));
    CUDA_CHECK(cudaEventCreate(&stop[i]));
  }
  // All reps are queued without a host sync; each event pair brackets one launch only, the
  // flush that precedes it stays outside.
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush.ptr, i & 0xff, flush.count, stream));
    CUDA_CHECK(cudaEventRecord(start[i], stream));
    launch();
    CUDA_CHECK(cudaEventRecord(stop[i], stream));
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
    ms[i] = t;
    CUDA_CHECK(cudaEventDestroy(start[i]));
    CUDA_CHECK(cudaEventDestroy(stop[i]));
  }
  std::sort(ms.begin(), ms.end());
  TimingStats s;
  s.reps = reps;
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  return s;
}

}  // namespace gemm
