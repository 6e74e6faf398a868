// What the drivers print about the GPU before any number, and the FP32 peak they divide by.
#pragma once

#include <cstddef>
#include <exception>
#include <string>

namespace gemm {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int major = 0, minor = 0;
  int sms = 0;
  int clock_khz = 0;  // the SM clock the peak uses: cudaDevAttrClockRate (max boost)
  int l2_bytes = 0;
  std::size_t total_mem = 0, free_mem = 0;
  int driver_version = 0, runtime_version = 0, cublas_version = 0;
  int fp32_lanes = 0;
  double fp32_peak_flops = 0.0;
};

// Throws gemm::NoGpu when there is no usable CUDA device.
DeviceInfo query_device();

struct NoGpu : std::exception {
  const char* what() const noexcept override { return "no CUDA-capable GPU found"; }
};

// The current SM clock of this device in MHz from NVML (loaded at run time, so nothing links
// against the driver's libnvidia-ml); -1 where NVML is not available.
int current_sm_clock_mhz();

std::string version_string(int cuda_version);  // 13000 -> "13.0"
std::string describe(const DeviceInfo& d);     // two lines for the report

}  // namespace gemm
