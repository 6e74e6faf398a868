#include "gemm_tests.h"

#include <cstdint>
#include <utility>
#include <vector>

GEMM_DECLARE_VARIANTS(ch21)
GEMM_DECLARE_HGEMM(ch21)
GEMM_DECLARE_BGEMM(ch21)
namespace ch21 {
// stage_kernel's launcher, a template over the 16-bit input type; kernel.cu's launchers
// instantiate it for __half and __nv_bfloat16.
template <class T>
cudaError_t stage(T*, long long, const T*, int, int, cudaStream_t);
}

GEMM_REQUIRE_HOPPER(ch21)

// The entry point: 20's products, A or B copied by stage_kernel where TMA cannot read them, and
// C's rows written from the buffers where TMA cannot write them.
GEMM_ENTRY_POINT_TESTS_IF(ch21_hopper, "[ch21][fp16]", ch21, "ch21::hgemm (FP16)", ch21::hgemm,
                          gemm_tests::tma_paths)
// BF16: the same kernels instantiated for BF16 inputs (2-byte elements too: the same paths).
GEMM_ENTRY_POINT_TESTS_IF(ch21_hopper, "[ch21][bf16]", ch21, "ch21::bgemm (BF16)", ch21::bgemm,
                          gemm_tests::tma_paths)

// A and B aligned, C only 4-byte aligned: TMA still reads A and B, C leaves row by row from the
// buffers.
TEST_CASE("ch21::hgemm (FP16): C one element past an aligned address", "[ch21][fp16]") {
  ch21_hopper();
  gemm_tests::check_c_one_past_aligned(
      gemm_tests::find(ch21::variants(), "", gemm::Precision::FP16));
}

// The copy's sources at offsets 0, 1, 3 and 7 (odd K and N move each row's start further), C's
// rows from the buffers with beta 0 and not, stream-K's later pieces adding into unaligned rows;
// the note says which path ran: both pieces, both, the copies alone.
TEST_CASE("ch21: staged copies at every offset, C's unaligned rows, stream-K pieces",
          "[ch21][fp16]") {
  ch21_hopper();
  for (const auto& [name, rows] : {std::pair<const char*, bool>{"", true},
                                   {"fp16_128x256x64_s4", true},
                                   {"fp16_128x256x64_s4_stage", false}})
    gemm_tests::check_staged(gemm_tests::find(ch21::variants(), name, gemm::Precision::FP16), rows);
}

// stage_kernel alone: rows x cols 16-bit elements starting 0-7 elements past a 16-byte boundary,
// in a buffer that ends where the matrix ends, into rows padded to 8 elements: every real element
// lands bit for bit (the padding holds what the kernel says: the next row's first elements, or
// zeros). The bits are arbitrary, NaN patterns included: the copy moves them, never converts.
template <class T>
void check_stage_every_shift() {
  const std::pair<int, int> shapes[] = {{1, 1},    {1, 7},   {1, 9},    {3, 5},   {2, 3},
                                        {7, 1},    {17, 33}, {64, 63},  {100, 1022},
                                        {33, 4095}, {1, 4095}, {300, 1}};
  static_assert(sizeof(T) == sizeof(std::uint16_t), "stage copies 16-bit elements");
  for (const auto& [rows, cols] : shapes)
    for (int offset = 0; offset < 8; ++offset) {
      INFO(rows << " x " << cols << ", source " << offset << " elements past 16 bytes");
      const std::size_t n = std::size_t(rows) * cols;
      const long long pitch = (cols + 7) / 8 * 8;
      std::vector<std::uint16_t> host(n);
      for (std::size_t i = 0; i < n; ++i)
        host[i] = static_cast<std::uint16_t>((i * 2654435761u) >> 13);
      T *src = nullptr, *dst = nullptr;
      CUDA_CHECK(cudaMalloc(&src, (offset + n) * sizeof(T)));
      CUDA_CHECK(cudaMalloc(&dst, rows * pitch * sizeof(T)));
      CUDA_CHECK(cudaMemcpy(src + offset, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemset(dst, 0xff, rows * pitch * sizeof(T)));
      REQUIRE(ch21::stage<T>(dst, pitch, src + offset, rows, cols, nullptr) == cudaSuccess);
      std::vector<std::uint16_t> out(rows * pitch);
      CUDA_CHECK(cudaMemcpy(out.data(), dst, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaFree(src));
      CUDA_CHECK(cudaFree(dst));
      int wrong = 0;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
          wrong += out[r * pitch + c] != host[r * cols + c];
      CHECK(wrong == 0);
    }
}

TEST_CASE("ch21::stage copies every shift and the matrix's last chunks", "[ch21][fp16]") {
  ch21_hopper();
  check_stage_every_shift<__half>();
}
TEST_CASE("ch21::stage copies every shift and the matrix's last chunks (BF16)", "[ch21][bf16]") {
  ch21_hopper();
  check_stage_every_shift<__nv_bfloat16>();
}

// Hidden ([.]): run alone (tests/CMakeLists.txt), since they take all of the GPU's memory.
TEST_CASE(
    "ch21::hgemm (FP16): no memory for the aligned copy: cudaErrorMemoryAllocation, C untouched",
    "[.][ch21][fp16][no_memory]") {
  ch21_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch21::variants(), "", gemm::Precision::FP16), 16,
                              2000, 1001, "no GPU memory for the aligned copy of A");
}
TEST_CASE("ch21::hgemm (FP16): no memory for the flags: cudaErrorMemoryAllocation, C untouched",
          "[.][ch21][fp16][no_memory]") {
  ch21_hopper();
  gemm_tests::check_no_memory(gemm_tests::find(ch21::variants(), "", gemm::Precision::FP16), 16,
                              4104, 2056, "no GPU memory for stream-K's flags");
}
