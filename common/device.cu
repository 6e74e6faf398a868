#include "device.h"

#include "cuda_check.h"
#include "peak.h"

#include <dlfcn.h>

#include <chrono>
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

double peak_flops(const DeviceInfo& d, Precision p) {
  return peak_flops(d.sms, dense_flops_per_clock_per_sm(d.major, d.minor, p), d.clock_khz * 1e3);
}

namespace {

// The few NVML entry points used, declared by hand: nvml.h is not needed to build.
struct Nvml {
  struct FieldValue {  // nvmlFieldValue_t
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, result;
    unsigned long long value;
  };
  using Init = int (*)();
  using ByBusId = int (*)(const char*, void**);
  using Power = int (*)(void*, unsigned*);
  using Fields = int (*)(void*, int, FieldValue*);
  void* device = nullptr;
  Power power = nullptr;
  Fields fields = nullptr;

  // The NVML handle of the current CUDA device, or none (no NVML, no device).
  static Nvml open() {
    static void* const lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    Nvml n;
    if (!lib) return n;
    static const bool ready = [] {
      const auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
      return init && init() == 0;
    }();
    const auto by_bus = reinterpret_cast<ByBusId>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    int ordinal = 0;
    char bus_id[32] = {};
    if (!ready || !by_bus || cudaGetDevice(&ordinal) != cudaSuccess ||
        cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) != cudaSuccess ||
        by_bus(bus_id, &n.device) != 0)
      return Nvml{};
    n.power = reinterpret_cast<Power>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    n.fields = reinterpret_cast<Fields>(dlsym(lib, "nvmlDeviceGetFieldValues"));
    return n;
  }

  // Board power in W, or -1.
  double watts() const {
    constexpr unsigned kPowerInstant = 186;  // NVML_FI_DEV_POWER_INSTANT, in mW
    if (fields) {
      FieldValue f{};
      f.field_id = kPowerInstant;
      if (fields(device, 1, &f) == 0 && f.result == 0) return static_cast<double>(f.value) / 1e3;
    }
    unsigned mw = 0;
    if (power && power(device, &mw) == 0) return mw / 1e3;
    return -1;
  }
};

}  // namespace

void PowerSampler::start() {
  sum_w_ = 0;
  count_ = 0;
  const Nvml nvml = Nvml::open();
  if (!nvml.device) return;
  running_ = true;
  thread_ = std::thread([this, nvml] {
    while (running_) {
      const double w = nvml.watts();
      if (w >= 0) {
        sum_w_ += w;
        ++count_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
}

double PowerSampler::stop(int& readings) {
  running_ = false;
  if (thread_.joinable()) thread_.join();
  readings = count_;
  return count_ ? sum_w_ / count_ : -1.0;
}

PowerSampler::~PowerSampler() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
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
