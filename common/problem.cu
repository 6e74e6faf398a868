#include "problem.h"

#include "random.h"
#include "reference.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

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

// FP32 to FP16 or BF16, round to nearest even.
__device__ __forceinline__ void round_to(float x, __half& out) { out = __float2half_rn(x); }
__device__ __forceinline__ void round_to(float x, __nv_bfloat16& out) {
  out = __float2bfloat16_rn(x);
}
template <class T>
__global__ void round_to_kernel(const float* in, T* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    round_to(in[i], out[i]);
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

// dst = src rounded to T, `offset` elements past an aligned address as src is.
template <class T>
void rounded_copy(const DeviceBuffer<float>& src, DeviceBuffer<T>& dst, std::size_t offset) {
  dst.resize(src.count, offset);
  if (src.count) round_to_kernel<<<grid_for(src.count), 256>>>(src.ptr, dst.ptr, src.count);
  CUDA_CHECK(cudaGetLastError());
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

// Non-negative doubles order like their bit patterns, so atomicMax on those bits is a max.
__device__ unsigned long long bits(double x) {
  return static_cast<unsigned long long>(__double_as_longlong(x));
}

struct Verdict {
  unsigned long long mismatches, first_bad, max_abs, max_rel, worst_ratio;
};

// gemm::allclose (compare.cpp), element for element: the same tests in the same order, and
// explicit roundings (no fused multiply-add) so that every bound is the host's.
__global__ void allclose_kernel(const float* got, const double* ref, std::size_t n, double rtol,
                                double atol, Verdict* v) {
  unsigned long long bad = 0, first = ~0ull;
  double max_abs = 0, max_rel = 0, worst = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const double g = got[i], e = ref[i];
    bool ok;
    if (!isfinite(g) || !isfinite(e)) {
      ok = false;
      worst = INFINITY;
    } else {
      const double diff = fabs(__dsub_rn(g, e));
      const double bound = __dadd_rn(atol, __dmul_rn(rtol, fabs(e)));
      ok = diff <= bound;
      max_abs = fmax(max_abs, diff);
      if (e != 0.0) max_rel = fmax(max_rel, __ddiv_rn(diff, fabs(e)));
      worst = fmax(worst, bound > 0.0 ? __ddiv_rn(diff, bound) : (diff > 0.0 ? INFINITY : 0.0));
    }
    if (!ok) {
      ++bad;
      first = min(first, static_cast<unsigned long long>(i));
    }
  }
  for (int d = 16; d > 0; d /= 2) {
    bad += __shfl_down_sync(0xffffffffu, bad, d);
    first = min(first, __shfl_down_sync(0xffffffffu, first, d));
    max_abs = fmax(max_abs, __shfl_down_sync(0xffffffffu, max_abs, d));
    max_rel = fmax(max_rel, __shfl_down_sync(0xffffffffu, max_rel, d));
    worst = fmax(worst, __shfl_down_sync(0xffffffffu, worst, d));
  }
  if (threadIdx.x % 32 == 0) {
    if (bad) atomicAdd(&v->mismatches, bad);
    if (bad) atomicMin(&v->first_bad, first);
    atomicMax(&v->max_abs, bits(max_abs));
    atomicMax(&v->max_rel, bits(max_rel));
    atomicMax(&v->worst_ratio, bits(worst));
  }
}

// Per block: the sum of squares and the count of the finite elements it visits; the blocks and
// their order are fixed, so the host's sum of the partials is the same on every run.
constexpr int kRmsBlocks = 512, kRmsThreads = 256;
__global__ void rms_partials_kernel(const double* ref, std::size_t n, double* sums,
                                    unsigned long long* counts) {
  __shared__ double s[kRmsThreads];
  __shared__ unsigned long long c[kRmsThreads];
  double sum = 0;
  unsigned long long cnt = 0;
  for (std::size_t i = blockIdx.x * std::size_t(kRmsThreads) + threadIdx.x; i < n;
       i += std::size_t(kRmsBlocks) * kRmsThreads)
    if (isfinite(ref[i])) {
      sum = __dadd_rn(sum, __dmul_rn(ref[i], ref[i]));
      ++cnt;
    }
  s[threadIdx.x] = sum;
  c[threadIdx.x] = cnt;
  __syncthreads();
  for (int d = kRmsThreads / 2; d > 0; d /= 2) {
    if (threadIdx.x < d) {
      s[threadIdx.x] = __dadd_rn(s[threadIdx.x], s[threadIdx.x + d]);
      c[threadIdx.x] += c[threadIdx.x + d];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = s[0], counts[blockIdx.x] = c[0];
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// The SM clock the GPU holds now: SM cycles (clock64) over nanoseconds (%globaltimer) for about
// 50 us, both ends taken just as the timer ticks, so its coarse steps do not blur the interval.
__global__ void clock_probe_kernel(unsigned long long* out) {
  const unsigned long long start = global_ns();
  unsigned long long t0 = start, t1;
  while (t0 == start)
    t0 = global_ns();
  const long long c0 = clock64();
  do
    t1 = global_ns();
  while (t1 < t0 + 50000);
  const long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

}  // namespace

CompareResult allclose_on_device(const float* got, const double* ref, std::size_t n,
                                 Tolerance tol) {
  CompareResult r;
  r.total = n;
  r.tol = tol;
  DeviceBuffer<Verdict> v(1);
  const Verdict init{0, ~0ull, 0, 0, 0};
  CUDA_CHECK(cudaMemcpy(v.ptr, &init, sizeof init, cudaMemcpyHostToDevice));
  if (n)
    allclose_kernel<<<std::min<unsigned>(grid_for(n), 4096), 256>>>(got, ref, n, tol.rtol, tol.atol,
                                                                    v.ptr);
  CUDA_CHECK(cudaGetLastError());
  Verdict h;
  CUDA_CHECK(cudaMemcpy(&h, v.ptr, sizeof h, cudaMemcpyDeviceToHost));
  r.mismatches = h.mismatches;
  const auto as_double = [](unsigned long long b) {
    double x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  };
  r.max_abs = as_double(h.max_abs);
  r.max_rel = as_double(h.max_rel);
  r.worst_ratio = as_double(h.worst_ratio);
  if (r.mismatches) {
    r.first_bad = h.first_bad;
    float g = 0;
    CUDA_CHECK(cudaMemcpy(&g, got + r.first_bad, sizeof g, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&r.first_ref, ref + r.first_bad, sizeof(double), cudaMemcpyDeviceToHost));
    r.first_got = g;
  }
  r.pass = r.mismatches == 0;
  return r;
}

double rms_on_device(const double* ref, std::size_t n) {
  if (n == 0) return 0.0;
  DeviceBuffer<double> sums(kRmsBlocks);
  DeviceBuffer<unsigned long long> counts(kRmsBlocks);
  rms_partials_kernel<<<kRmsBlocks, kRmsThreads>>>(ref, n, sums.ptr, counts.ptr);
  CUDA_CHECK(cudaGetLastError());
  const std::vector<double> s = sums.to_host();
  const std::vector<unsigned long long> c = counts.to_host();
  double sum = 0;
  unsigned long long count = 0;
  for (int b = 0; b < kRmsBlocks; ++b)
    sum += s[b], count += c[b];
  return count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

template <class T>
std::vector<T> DeviceBuffer<T>::to_host() const {
  std::vector<T> h(count);
  if (count) CUDA_CHECK(cudaMemcpy(h.data(), ptr, count * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
template struct DeviceBuffer<float>;
template struct DeviceBuffer<double>;
template struct DeviceBuffer<__half>;
template struct DeviceBuffer<__nv_bfloat16>;
template struct DeviceBuffer<unsigned long long>;

template <class T, class Widen>
static std::vector<float> widened_copy(const DeviceBuffer<T>& d, Widen widen) {
  const std::vector<T> h = d.to_host();
  std::vector<float> f(h.size());
  std::transform(h.begin(), h.end(), f.begin(), widen);
  return f;
}
std::vector<float> widened(const DeviceBuffer<__half>& d) {
  return widened_copy(d, [](__half x) { return __half2float(x); });
}
std::vector<float> widened(const DeviceBuffer<__nv_bfloat16>& d) {
  return widened_copy(d, [](__nv_bfloat16 x) { return __bfloat162float(x); });
}

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
  if (fp16_inputs) bytes += 4 * (mk + kn);  // FP16 and BF16 copies
  if (check) bytes += 8 * (mk + kn + 3 * mn);
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
    rounded_copy(A, A16, offset);
    rounded_copy(B, B16, offset);
    rounded_copy(A, Abf, offset);
    rounded_copy(B, Bbf, offset);
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

Problem::Ref& Problem::ref(Precision p, float alpha, float beta, double cpu_limit) {
  // TF32 rounding happens inside the kernel; its reference is the exact FP32 problem. FP16 and
  // BF16: the rounded inputs.
  const auto inputs = [](Precision q) { return sixteen_bit(q) ? q : Precision::FP32; };
  for (const auto& r : refs_)
    if (inputs(r->p) == inputs(p) && r->alpha == alpha && r->beta == beta) return *r;

  auto r = std::make_unique<Ref>();
  r->p = p;
  r->alpha = alpha;
  r->beta = beta;
  r->device.resize(C.count);
  // The CPU only where the matrices are small as well: at 9,000,000 x 1 x 1 (9 million
  // multiply-adds) the host copies and conversions took 0.3 s a reference, DGEMM milliseconds.
  const double macs = double(M) * N * K;
  const double elements = double(M) * K + double(K) * N + double(M) * N;
  if (macs <= cpu_limit && elements <= cpu_limit / 16) {
    used_cpu_ = true;
    std::vector<float> a, b;
    if (p == Precision::FP16) {
      a = widened(A16);
      b = widened(B16);
    } else if (p == Precision::BF16) {
      a = widened(Abf);
      b = widened(Bbf);
    } else {
      a = A.to_host();
      b = B.to_host();
    }
    const std::vector<float> c0 = C0.to_host();
    r->host.assign(C.count, 0.0);
    reference_gemm_cpu(M, N, K, alpha, a.data(), b.data(), beta, c0.data(), r->host.data());
    if (C.count)
      CUDA_CHECK(cudaMemcpy(r->device.ptr, r->host.data(), C.count * sizeof(double),
                            cudaMemcpyHostToDevice));
  } else {
    DeviceBuffer<double> a(A.count), b(B.count);
    if (p == Precision::FP16) {
      to_double(A16.ptr, a.ptr, A.count);
      to_double(B16.ptr, b.ptr, B.count);
    } else if (p == Precision::BF16) {
      to_double(Abf.ptr, a.ptr, A.count);
      to_double(Bbf.ptr, b.ptr, B.count);
    } else {
      to_double(A.ptr, a.ptr, A.count);
      to_double(B.ptr, b.ptr, B.count);
    }
    to_double(C0.ptr, r->device.ptr, C.count);
    // The handle is shared with the timed cuBLAS runs: borrow it on the default stream and give
    // it back on the caller's stream, or later launches would escape the caller's events.
    cudaStream_t caller = nullptr;
    CUBLAS_CHECK(cublasGetStream(cublas_handle(), &caller));
    CUBLAS_CHECK(cublasSetStream(cublas_handle(), nullptr));
    reference_dgemm(cublas_handle(), M, N, K, alpha, a.ptr, b.ptr, beta, r->device.ptr);
    CUBLAS_CHECK(cublasSetStream(cublas_handle(), caller));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  r->rms = rms_on_device(r->device.ptr, r->device.count);
  refs_.push_back(std::move(r));
  return *refs_.back();
}

const std::vector<double>& Problem::reference(Precision p, float alpha, float beta,
                                              double cpu_limit) {
  Ref& r = ref(p, alpha, beta, cpu_limit);
  if (r.host.size() != r.device.count) r.host = r.device.to_host();
  return r.host;
}

CompareResult Problem::check_c(Precision p, float alpha, float beta) {
  const Ref& r = ref(p, alpha, beta, 1 << 24);
  // C may have been written on another stream: the kernels below run on the legacy one.
  CUDA_CHECK(cudaDeviceSynchronize());
  return allclose_on_device(C.ptr, r.device.ptr, C.count, tolerance_for(p, K, r.rms));
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
  const void* a = p == Precision::FP16   ? static_cast<const void*>(prob.A16.ptr)
                  : p == Precision::BF16 ? static_cast<const void*>(prob.Abf.ptr)
                                         : prob.A.ptr;
  const void* b = p == Precision::FP16   ? static_cast<const void*>(prob.B16.ptr)
                  : p == Precision::BF16 ? static_cast<const void*>(prob.Bbf.ptr)
                                         : prob.B.ptr;
  const cudaDataType_t in_type = p == Precision::FP16   ? CUDA_R_16F
                                 : p == Precision::BF16 ? CUDA_R_16BF
                                                        : CUDA_R_32F;
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
  DeviceBuffer<unsigned long long> clocks(2 * static_cast<std::size_t>(reps));
  std::vector<cudaEvent_t> start(reps), stop(reps);
  std::vector<double> host_us(reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventCreate(&start[i]));
    CUDA_CHECK(cudaEventCreate(&stop[i]));
  }
  // All reps are queued without a host sync; each event pair brackets one launch only, the
  // flush that precedes it stays outside.
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaMemsetAsync(flush.ptr, i & 0xff, flush.count, stream));
    CUDA_CHECK(cudaEventRecord(start[i], stream));
    const auto called = std::chrono::steady_clock::now();
    launch();
    host_us[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - called)
                     .count();
    CUDA_CHECK(cudaEventRecord(stop[i], stream));
    clock_probe_kernel<<<1, 1, 0, stream>>>(clocks.ptr + 2 * i);
    CUDA_CHECK(cudaGetLastError());
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
  const std::vector<unsigned long long> c = clocks.to_host();
  std::vector<double> mhz(reps);
  for (int i = 0; i < reps; ++i)
    mhz[i] = c[2 * i + 1] ? 1e3 * double(c[2 * i]) / double(c[2 * i + 1]) : 0.0;
  std::sort(mhz.begin(), mhz.end());
  std::sort(ms.begin(), ms.end());
  std::sort(host_us.begin(), host_us.end());
  TimingStats s;
  s.host_us = reps % 2 ? host_us[reps / 2] : 0.5 * (host_us[reps / 2 - 1] + host_us[reps / 2]);
  s.sm_clock_mhz = reps % 2 ? mhz[reps / 2] : 0.5 * (mhz[reps / 2 - 1] + mhz[reps / 2]);
  s.sm_clock_min_mhz = mhz.front();
  s.reps = reps;
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.median_ms = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  return s;
}

}  // namespace gemm
