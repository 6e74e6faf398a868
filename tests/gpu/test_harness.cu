// The harness itself on the GPU: the device generator, the cuBLAS DGEMM reference against the
// CPU one (from the FP32, FP16 and BF16 inputs), and cuBLAS in every precision against it (a
// sanity check of the row-major mapping and of the 16-bit copies).
#include "../catch_compat.h"

#include "problem.h"
#include "random.h"
#include "reference.h"

#include <cmath>
#include <cstdint>

TEST_CASE("device inputs equal the host generator bit for bit", "[harness]") {
  std::vector<float> host(1000);
  gemm::DeviceBuffer<float> dev(host.size());
  gemm::fill_uniform(dev.ptr, dev.count, 1234, nullptr);
  const std::vector<float> got = dev.to_host();
  for (std::size_t i = 0; i < host.size(); ++i)
    REQUIRE(got[i] == gemm::uniform_pm1(1234, i));
}

TEST_CASE("the cuBLAS DGEMM reference agrees with the CPU reference", "[harness]") {
  for (const float beta : {0.0f, 0.75f}) {
    gemm::Problem gpu(301, 257, 311, 5, true), cpu(301, 257, 311, 5, true);
    for (const gemm::Precision p :
         {gemm::Precision::FP32, gemm::Precision::FP16, gemm::Precision::BF16}) {
      const std::vector<double>& g = gpu.reference(p, -1.25f, beta, /*cpu_limit=*/0);
      const std::vector<double>& c = cpu.reference(p, -1.25f, beta, /*cpu_limit=*/1e12);
      REQUIRE_FALSE(gpu.used_cpu_reference());
      REQUIRE(cpu.used_cpu_reference());
      double worst = 0.0;
      for (std::size_t i = 0; i < g.size(); ++i)
        worst = std::max(worst, std::fabs(g[i] - c[i]) / (1.0 + std::fabs(c[i])));
      INFO("beta " << beta << " precision " << gemm::to_string(p) << " worst " << worst);
      CHECK(worst < 1e-12);
    }
  }
}

// One problem for all four: the BF16 check after the FP16 one also fails if the reference cache
// hands BF16 the reference of the FP16 inputs.
TEST_CASE("cuBLAS FP32 through the row-major mapping passes the check", "[harness]") {
  gemm::Problem prob(300, 200, 100, 8, true);
  for (const gemm::Precision p : {gemm::Precision::FP32, gemm::Precision::TF32,
                                  gemm::Precision::FP16, gemm::Precision::BF16}) {
    prob.reset_c(0.5f, nullptr);
    CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), nullptr));
    gemm::cublas_gemm(gemm::cublas_handle(), p, prob, 1.5f, 0.5f);
    CUDA_CHECK(cudaDeviceSynchronize());
    const gemm::CompareResult r = prob.check_c(p, 1.5f, 0.5f);
    INFO(gemm::to_string(p) << "\n" << gemm::report(r, prob.N));
    CHECK(r.pass);
  }
}

TEST_CASE("TF32 rounding is outside the FP32 tolerance", "[harness]") {
  // The FP32 check must be tight enough to tell a TF32 kernel from an FP32 one.
  gemm::Problem prob(256, 256, 1024, 8, false);
  prob.reset_c(0.0f, nullptr);
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), nullptr));
  gemm::cublas_gemm(gemm::cublas_handle(), gemm::Precision::TF32, prob, 1.0f, 0.0f);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK_FALSE(prob.check_c(gemm::Precision::FP32, 1.0f, 0.0f).pass);
}

TEST_CASE("BF16 inputs are outside the tolerance of the FP16 reference", "[harness]") {
  // BF16 keeps 8 significant bits to FP16's 11: the check of BF16 results must use the BF16
  // rounding of the inputs, and the FP16 tolerance is tight enough to tell the two apart.
  gemm::Problem prob(256, 256, 1024, 8, true);
  prob.reset_c(0.0f, nullptr);
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), nullptr));
  gemm::cublas_gemm(gemm::cublas_handle(), gemm::Precision::BF16, prob, 1.0f, 0.0f);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(prob.check_c(gemm::Precision::BF16, 1.0f, 0.0f).pass);
  CHECK_FALSE(prob.check_c(gemm::Precision::FP16, 1.0f, 0.0f).pass);
}

TEST_CASE("computing a reference leaves the shared cuBLAS handle on the caller's stream",
          "[harness]") {
  // A reference that re-pointed the handle made later timed cuBLAS launches escape the events
  // of the timing stream (they measured ~0.002 ms).
  cudaStream_t stream = nullptr, seen = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), stream));
  gemm::Problem prob(512, 512, 512, 4, false);
  prob.reference(gemm::Precision::FP32, 1.0f, 0.0f, /*cpu_limit=*/0);
  CUBLAS_CHECK(cublasGetStream(gemm::cublas_handle(), &seen));
  CHECK(seen == stream);
  // And a timed cuBLAS launch then takes as long as its FLOPs say: 2*512^3 FLOP cannot run in
  // under 1 us on any GPU (that would be 268 TFLOP/s of FP32).
  const gemm::TimingStats t = gemm::time_launches(
      [&] { gemm::cublas_gemm(gemm::cublas_handle(), gemm::Precision::FP32, prob, 1.0f, 0.0f); }, 1,
      5, stream);
  CHECK(t.median_ms > 1e-3);
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), nullptr));
  CUDA_CHECK(cudaStreamDestroy(stream));
}

TEST_CASE("a problem with an offset starts one element past an aligned address", "[harness]") {
  gemm::Problem prob(33, 17, 9, 8, true, 1);
  CHECK(reinterpret_cast<std::uintptr_t>(prob.A.ptr) % 16 == sizeof(float));
  CHECK(reinterpret_cast<std::uintptr_t>(prob.B.ptr) % 16 == sizeof(float));
  CHECK(reinterpret_cast<std::uintptr_t>(prob.C.ptr) % 16 == sizeof(float));
  CHECK(reinterpret_cast<std::uintptr_t>(prob.A16.ptr) % 16 == sizeof(__half));
  CHECK(reinterpret_cast<std::uintptr_t>(prob.Abf.ptr) % 16 == sizeof(__nv_bfloat16));
  // Its inputs are those of the aligned problem with the same seed, and cuBLAS agrees.
  gemm::Problem aligned(33, 17, 9, 8, true, 0);
  CHECK(prob.A.to_host() == aligned.A.to_host());
  prob.reset_c(0.5f, nullptr);
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), nullptr));
  gemm::cublas_gemm(gemm::cublas_handle(), gemm::Precision::FP32, prob, 1.5f, 0.5f);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(prob.check_c(gemm::Precision::FP32, 1.5f, 0.5f).pass);
}
