#include "device.h"

#include "cuda_check.h"
#include "peak.h"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace gemm {

DeviceInfo query_device() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    cudaGetLastError();  // clear the sticky "no device" error
    throw NoGpu();
  }
  DeviceInfo d;
  CUDA_CHECK(cudaGetDevice(&d.ordinal));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, d.ordinal));
  d.name = prop.name;
  d.major = prop.major;
  d.minor = prop.minor;
  d.sms = prop.multiProcessorCount;
  d.l2_bytes = prop.l2CacheSize;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  // CUDA 13 removed cudaDeviceProp::clockRate; the attribute still gives the max SM clock.
  CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, d.ordinal));
  CUDA_CHECK(cudaMemGetInfo(&d.free_mem, &d.total_mem));
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  int major = 0, minor = 0, patch = 0;
  CUBLAS_CHECK(cublasGetProperty(MAJOR_VERSION, &major));
  CUBLAS_CHECK(cublasGetProperty(MINOR_VERSION, &minor));
  CUBLAS_CHECK(cublasGetProperty(PATCH_LEVEL, &patch));
  d.cublas_version = major * 10000 + minor * 100 + patch;
  d.fp32_lanes = fp32_lanes_per_sm(d.major, d.minor);
  d.fp32_peak_flops = fp32_peak_flops(d.sms, d.fp32_lanes, d.clock_khz * 1e3);
  return d;
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!s.empty() && s.back() != '-')
      s += '-';
  }
  while (!s.empty() && s.back() == '-')
    s.pop_back();
  return s.empty() ? "unknown-gpu" : s;
}

std::string version_string(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string describe(const DeviceInfo& d) {
  char text[512];
  std::snprintf(text, sizeof text,
                "GPU %d: %s | sm_%d%d | %d SMs | %.0f MHz max | L2 %.0f MiB | %.1f GiB\n"
                "FP32 peak %.1f TFLOP/s (%d SMs x %d lanes x 2 x %.3f GHz) | driver %s | "
                "runtime %s | cuBLAS %d.%d.%d",
                d.ordinal, d.name.c_str(), d.major, d.minor, d.sms, d.clock_khz / 1e3,
                d.l2_bytes / 1048576.0, d.total_mem / 1073741824.0, d.fp32_peak_flops / 1e12, d.sms,
                d.fp32_lanes, d.clock_khz / 1e6, version_string(d.driver_version).c_str(),
                version_string(d.runtime_version).c_str(), d.cublas_version / 10000,
                (d.cublas_version / 100) % 100, d.cublas_version % 100);
  return text;
}

}  // namespace gemm
