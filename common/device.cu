#include "device.h"

#include "cuda_check.h"
#include "peak.h"

#include <dlfcn.h>

#include <cstdio>

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

int current_sm_clock_mhz() {
  // The few NVML entry points used, declared by hand: nvml.h is not needed to build.
  using Init = int (*)();
  using ByBusId = int (*)(const char*, void**);
  using ClockInfo = int (*)(void*, int, unsigned*);
  static void* const lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return -1;
  static const bool ready = [] {
    const auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    return init && init() == 0;
  }();
  const auto by_bus = reinterpret_cast<ByBusId>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  const auto clock = reinterpret_cast<ClockInfo>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  int device = 0;
  char bus_id[32] = {};
  if (!ready || !by_bus || !clock || cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device) != cudaSuccess)
    return -1;
  void* handle = nullptr;
  unsigned mhz = 0;
  constexpr int kNvmlClockSm = 1;
  if (by_bus(bus_id, &handle) != 0 || clock(handle, kNvmlClockSm, &mhz) != 0) return -1;
  return static_cast<int>(mhz);
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
