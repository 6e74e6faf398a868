// What the drivers print about the GPU before any number, the peaks they divide by, and the
// board power read while a row's timed launches run.
#pragma once

#include "precision.h"

#include <atomic>
#include <cstddef>
#include <exception>
#include <string>
#include <thread>

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

// The dense peak of precision p at the maximum SM clock (FLOP/s); 0 where the rate is unknown.
double peak_flops(const DeviceInfo& d, Precision p);

// Board power from NVML (loaded at run time, so nothing links against the driver's
// libnvidia-ml), read every millisecond on a thread of its own between start() and stop() (the
// driver starts it before the warm-ups and stops it after the timed launches): the instantaneous
// reading where the driver has it, else its one-second average. The driver refreshes it about every
// 100 ms, so a run shorter than that sees the draw of up to 100 ms before. stop() gives the mean in
// W and the number of readings; -1 W without NVML.
class PowerSampler {
 public:
  void start();
  double stop(int& readings);
  ~PowerSampler();

 private:
  std::thread thread_;
  std::atomic<bool> running_{false};
  double sum_w_ = 0;
  int count_ = 0;
};

std::string version_string(int cuda_version);  // 13000 -> "13.0"
std::string describe(const DeviceInfo& d);     // two lines for the report

}  // namespace gemm
