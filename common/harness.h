// The driver every chapter's main.cu hands its launchers to: parses the flags, reports the GPU,
// checks each variant against the FP64 reference, times it and cuBLAS in the same process, and
// prints the table (and CSV).
#pragma once

#include "options.h"
#include "precision.h"
#include "problem.h"

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
  std::size_t static_smem = 0, dynamic_smem = 0, local_bytes = 0;
  int blocks_per_sm = 0;
  double occupancy = 0.0;  // resident warps / max warps per SM
};

KernelResources kernel_resources(const KernelInfo& k);

// The whole driver. The first variant is the one chNN::sgemm runs. Returns the exit code:
// 0 all checks passed, 1 a check failed or a CUDA error, 2 bad flags or a rejected shape.
int run_chapter(int argc, char** argv, const std::string& chapter,
                const std::vector<Variant>& variants);

}  // namespace gemm
