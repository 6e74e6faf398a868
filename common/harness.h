// The driver every chapter's main.cu hands its launchers to: parses the flags, reports the GPU,
// checks each variant against the FP64 reference, times it and cuBLAS in the same process, and
// prints the table (and CSV).
#pragma once

#include "options.h"
#include "precision.h"
#include "problem.h"

#include <stdexcept>
#include <string>
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
  SgemmFn sgemm = nullptr;
  HgemmFn hgemm = nullptr;
  KernelInfo kernel;

  Variant(std::string n, SgemmFn f, KernelInfo k, Precision p = Precision::FP32)
      : name(std::move(n)), precision(p), sgemm(f), kernel(k) {}
  Variant(std::string n, HgemmFn f, KernelInfo k)
      : name(std::move(n)), precision(Precision::FP16), hgemm(f), kernel(k) {}

  cudaError_t launch(Problem& p, float alpha, float beta, cudaStream_t stream) const {
    return sgemm ? sgemm(p.M, p.N, p.K, alpha, p.A.ptr, p.B.ptr, beta, p.C.ptr, stream)
                 : hgemm(p.M, p.N, p.K, alpha, p.A16.ptr, p.B16.ptr, beta, p.C.ptr, stream);
  }
};

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
  int clock_before_mhz = -1, clock_after_mhz = -1;  // SM clock around the timed launches
  double tflops() const { return 2.0 * M * N * K / (time.median_ms * 1e-3) / 1e12; }
};

// A launcher refused the problem (cudaErrorInvalidValue); what() is its reason.
struct Rejected : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Measurement measure_kernel(const std::string& chapter, const Variant& v, Problem& prob,
                           const Options& o, cudaStream_t stream);
Measurement measure_cublas(Precision p, Problem& prob, const Options& o, cudaStream_t stream);

// The driver of one chapter. The first variant is the one chNN::sgemm runs. Returns the exit
// code: 0 all checks passed, 1 a check failed or a CUDA error, 2 bad flags or a refused shape.
int run_chapter(int argc, char** argv, const std::string& chapter,
                const std::vector<Variant>& variants);

struct Chapter {
  std::string name;
  std::vector<Variant> variants;  // the first one (two for 08: TF32 and FP16) are the defaults
  int defaults = 1;
};

// The whole benchmark in one process (bench/gemm_bench): every chapter's defaults and cuBLAS
// at every size of --sizes, then the tile sweeps, then the device-copy bandwidth; one CSV.
int run_all(int argc, char** argv, const std::vector<Chapter>& chapters);

}  // namespace gemm
