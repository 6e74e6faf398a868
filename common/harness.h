// The driver every chapter's main.cu hands its launchers to: parses the flags, reports the GPU,
// checks each variant against the FP64 reference, times it and cuBLAS in the same process, and
// prints the table (and CSV).
#pragma once

#include "device.h"
#include "gemm_check.h"
#include "options.h"
#include "precision.h"
#include "problem.h"

#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gemm {

// The kernel behind a launcher, for the resource report (registers, shared memory, occupancy).
struct KernelInfo {
  const void* func = nullptr;
  int threads = 0;
  std::size_t dynamic_smem = 0;
};

template <class... Args>
KernelInfo kernel_info(void (*kernel)(Args...), int threads, std::size_t dynamic_smem = 0) {
  return {reinterpret_cast<const void*>(kernel), threads, dynamic_smem};
}

struct Variant {
  std::string name;
  Precision precision = Precision::FP32;
  SgemmLaunch sgemm = nullptr;
  HgemmLaunch hgemm = nullptr;
  BgemmLaunch bgemm = nullptr;
  // The kernel the launcher runs with 16-byte accesses (or TMA), and the one it runs element by
  // element (chapters 01-02, and 10, have one kernel: both are the same).
  KernelInfo kernel, narrow;
  // The template arguments by name (--params prints them; scripts/figures.py draws from them).
  std::vector<std::pair<std::string, std::string>> params;

  Variant(std::string n, SgemmLaunch f, KernelInfo k, KernelInfo nk, Precision p = Precision::FP32)
      : name(std::move(n)), precision(p), sgemm(f), kernel(k), narrow(nk) {}
  Variant(std::string n, HgemmLaunch f, KernelInfo k, KernelInfo nk)
      : name(std::move(n)), precision(Precision::FP16), hgemm(f), kernel(k), narrow(nk) {}
  Variant(std::string n, BgemmLaunch f, KernelInfo k, KernelInfo nk)
      : name(std::move(n)), precision(Precision::BF16), bgemm(f), kernel(k), narrow(nk) {}

  Variant&& with(const char* param, long long value) && {
    params.emplace_back(param, std::to_string(value));
    return std::move(*this);
  }
  Variant&& with(const char* param, const char* type) && {
    params.emplace_back(param, std::string("\"") + type + "\"");
    return std::move(*this);
  }

  cudaError_t launch(Problem& p, float alpha, float beta, cudaStream_t stream,
                     LaunchInfo* info) const {
    if (sgemm) return sgemm(p.M, p.N, p.K, alpha, p.A.ptr, p.B.ptr, beta, p.C.ptr, stream, info);
    if (bgemm)
      return bgemm(p.M, p.N, p.K, alpha, p.Abf.ptr, p.Bbf.ptr, beta, p.C.ptr, stream, info);
    return hgemm(p.M, p.N, p.K, alpha, p.A16.ptr, p.B16.ptr, beta, p.C.ptr, stream, info);
  }
};

// A template argument by its name: .with(GEMM_PARAM(STAGES)).
#define GEMM_PARAM(x) #x, static_cast < long long>(x)

struct KernelResources {
  int registers = 0;
  std::size_t static_smem = 0, dynamic_smem = 0;
  int blocks_per_sm = 0;
  double occupancy = 0.0;  // resident warps / max warps per SM
};

KernelResources kernel_resources(const KernelInfo& k);

// One kernel (or cuBLAS) checked and timed on one problem.
struct Measurement {
  std::string chapter, variant, table;  // table: which result table the row feeds
  Precision precision = Precision::FP32;
  int M = 0, N = 0, K = 0;
  float alpha = 1.0f, beta = 0.0f;
  bool checked = false, is_cublas = false;
  CompareResult cmp;
  TimingStats time;
  KernelResources res;
  double sm_clock_mhz = -1, sm_clock_min_mhz = -1;  // measured after each timed launch
  double power_w = -1;  // board power while the timed launches ran (NVML; -1: none)
  int power_readings = 0;
  double bytes = 0;    // a copy's bytes read + written (the memory ceiling); 0 for a GEMM
  std::string access;  // the launcher's global-access path (LaunchInfo::access); cuBLAS: ""
  int offset = 0;      // elements A, B and C start past an aligned address
  int k_splits = 1;    // blocks per tile of C that split K among them (07 on, on small C)
  std::string note;    // the launcher's sentence about this launch (LaunchInfo::note), or ""
  double tflops() const { return 2.0 * M * N * K / (time.median_ms * 1e-3) / 1e12; }
  double gb_per_s() const { return bytes / (time.median_ms * 1e-3) / 1e9; }
};

// A launcher refused the problem with a sentence (LaunchInfo::why); what() is the sentence.
struct Rejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Measurement measure_kernel(const std::string& chapter, const Variant& v, Problem& prob,
                           const Options& o, cudaStream_t stream);
Measurement measure_cublas(Precision p, Problem& prob, const Options& o, cudaStream_t stream);

// Whether variants[i] is a default: the first variant of its precision, the one chNN::sgemm
// (FP32 or TF32) or chNN::hgemm (FP16) runs.
bool is_default(const std::vector<Variant>& variants, std::size_t i);

// The driver of one chapter: runs the defaults, or --variant NAME, or --variant all. Returns the
// exit code: 0 all checks passed, 1 a check failed or a CUDA error, 2 bad flags or a refused shape.
int run_chapter(int argc, char** argv, const std::string& chapter,
                const std::vector<Variant>& variants);

// The pieces a driver is made of, shared by run_chapter and the benchmark runner (bench/).

struct Shape {
  int m, n, k;
};
std::vector<Shape> shapes_of(const Options& o);  // --sizes, or the single M, N, K

// The exit code for shapes there is nothing to run for (0: nothing to do, 2: too large for
// 32-bit indexing), after one sentence; nothing when every shape can run.
std::optional<int> refuse_shapes(const std::string& prog, const std::vector<Shape>& shapes);

// Says so and returns false when the largest problem does not fit in the GPU's free memory.
bool fits(const std::string& prog, const std::vector<Shape>& shapes, bool fp16, bool check,
          const DeviceInfo& dev);

// Parses the flags; on a malformed one prints the sentence and the usage line, returns false.
bool parse_or_explain(int argc, char** argv, const std::string& prog, Options& o);
std::string program_name(const char* argv0);
std::string command_line(int argc, char** argv);

// cuBLAS's median time for the same precision and shape among `rows`, 0 if not measured: for a
// row of `rows`, the nearest cuBLAS row up to it (gemm_bench times cuBLAS right before each
// kernel), else the first.
double cublas_ms(const std::vector<Measurement>& rows, const Measurement& r);

// Failed checks with numpy's report, and FP32 rates above the peak (broken timing), on stderr.
// Returns whether all is well.
bool report_failures(const std::vector<Measurement>& rows, const DeviceInfo& d);

// Appends one CSV row per measurement (with a header if the file is new or empty).
void append_csv(const std::string& path, const std::vector<Measurement>& rows, const DeviceInfo& d,
                const std::string& cmd);

struct StreamGuard {
  cudaStream_t stream = nullptr;
  StreamGuard() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~StreamGuard() { cudaStreamDestroy(stream); }
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;
};

// Runs a driver's body and turns what it throws into one sentence and exit code 1.
template <class F>
int guarded(const std::string& name, F&& body) {
  try {
    return body();
  } catch (const NoGpu& e) {
    std::cerr << name << ": " << e.what() << ".\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << name << ": out of host memory for this problem size.\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << name << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace gemm
