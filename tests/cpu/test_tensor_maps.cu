// The Hopper chapters' tensor maps (common/hopper.cuh) come from the driver once per matrix and box
// and host thread; these tests hand tensor_map a stand-in for the driver's encode function that
// counts its calls, so they need no GPU.
#include "../catch_compat.h"

#include "hopper.cuh"

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// Each test case its own stand-in (ID), so that no case finds maps another one left behind: the
// encode function is part of a map's key. It writes the call's number and arguments into the map,
// and refuses a box of 7 rows.
template <int ID>
struct Driver {
  static inline std::atomic<int> calls{0};
  static CUresult encode(CUtensorMap* map, CUtensorMapDataType type, cuuint32_t rank, void* base,
                         const cuuint64_t* dims, const cuuint64_t* stride, const cuuint32_t* box,
                         const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                         CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
    if (box[1] == 7) return CUDA_ERROR_INVALID_VALUE;
    std::memset(map, 0, sizeof *map);
    const unsigned long long words[] = {
        static_cast<unsigned long long>(++calls), static_cast<unsigned long long>(type), rank,
        reinterpret_cast<unsigned long long>(base), dims[0], dims[1], stride[0], box[0], box[1]};
    std::memcpy(map, words, sizeof words);
    return CUDA_SUCCESS;
  }
};

bool same(const CUtensorMap& a, const CUtensorMap& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

TEST_CASE("a repeated matrix and box reuse their tensor map", "[tensor_map]") {
  using D = Driver<1>;
  std::vector<__half> a(64 * 96);
  CUtensorMap first{}, again{};
  REQUIRE(gemm::tensor_map(D::encode, first, a.data(), 64, 96, 96, 128));
  REQUIRE(gemm::tensor_map(D::encode, again, a.data(), 64, 96, 96, 128));
  CHECK(D::calls == 1);
  CHECK(same(first, again));
}

TEST_CASE("anything that goes into a tensor map makes a new one", "[tensor_map]") {
  using D = Driver<2>;
  std::vector<__half> a(64 * 104);
  std::vector<float> c(64 * 104);
  CUtensorMap map{};
  REQUIRE(gemm::tensor_map(D::encode, map, a.data(), 64, 96, 96, 128));
  int expected = 1;
  const auto asks_again = [&](bool ok) {
    REQUIRE(ok);
    CHECK(D::calls == ++expected);
  };
  asks_again(gemm::tensor_map(D::encode, map, a.data() + 8, 64, 96, 96, 128));  // the address
  asks_again(gemm::tensor_map(D::encode, map, a.data(), 63, 96, 96, 128));      // the rows
  asks_again(gemm::tensor_map(D::encode, map, a.data(), 64, 88, 96, 128));      // the columns
  asks_again(gemm::tensor_map(D::encode, map, a.data(), 64, 96, 104, 128));     // the pitch
  asks_again(gemm::tensor_map(D::encode, map, a.data(), 64, 96, 96, 64));       // the box
  // The same bytes as BF16 and as floats.
  asks_again(gemm::tensor_map(D::encode, map, reinterpret_cast<__nv_bfloat16*>(a.data()), 64, 96,
                              96, 128));
  asks_again(gemm::tensor_map(D::encode, map, reinterpret_cast<float*>(a.data()), 64, 48, 48, 128));
  // Another encode function (another driver) does not find this one's maps.
  CUtensorMap other{};
  REQUIRE(gemm::tensor_map(Driver<3>::encode, other, c.data(), 64, 96, 104, 128));
  CHECK(Driver<3>::calls == 1);
}

TEST_CASE("a refused tensor map is asked for again", "[tensor_map]") {
  using D = Driver<4>;
  std::vector<__half> a(64 * 64);
  CUtensorMap map{};
  CHECK_FALSE(gemm::tensor_map(D::encode, map, a.data(), 64, 64, 64, 7));
  CHECK_FALSE(gemm::tensor_map(D::encode, map, a.data(), 64, 64, 64, 7));
  CHECK(D::calls == 0);  // the stand-in counts the maps it made
}

TEST_CASE("the cache keeps the last MAP_CACHE maps", "[tensor_map]") {
  using D = Driver<5>;
  constexpr int n = gemm::MAP_CACHE;
  std::vector<__half> a(64 * 64 * (n + 1));
  std::vector<CUtensorMap> maps(n + 1);
  for (int i = 0; i <= n; ++i)  // n + 1 matrices: the first one's slot goes to the last
    REQUIRE(gemm::tensor_map(D::encode, maps[i], a.data() + 64 * 64 * i, 64, 64, 64, 64));
  CHECK(D::calls == n + 1);
  CUtensorMap map{};
  for (int i = 1; i <= n; ++i) {  // still kept
    REQUIRE(gemm::tensor_map(D::encode, map, a.data() + 64 * 64 * i, 64, 64, 64, 64));
    CHECK(same(map, maps[i]));
  }
  CHECK(D::calls == n + 1);
  REQUIRE(gemm::tensor_map(D::encode, map, a.data(), 64, 64, 64, 64));  // made again
  CHECK(D::calls == n + 2);
}

TEST_CASE("host threads keep their own tensor maps", "[tensor_map]") {
  using D = Driver<6>;
  constexpr int threads = 4;
  std::vector<__half> a(64 * 64 * threads);
  std::vector<CUtensorMap> first(threads), again(threads);
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  std::atomic<bool> ok{true};
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ++ready;
      while (ready < threads)
        std::this_thread::yield();
      // Every thread's first call at once: the same matrix, then its own, then the same again.
      bool made = gemm::tensor_map(D::encode, first[t], a.data(), 64, 64, 64, 64);
      CUtensorMap own{};
      made = made && gemm::tensor_map(D::encode, own, a.data() + 64 * 64 * t, 32, 64, 64, 64);
      made = made && gemm::tensor_map(D::encode, again[t], a.data(), 64, 64, 64, 64);
      if (!made) ok = false;
    });
  for (std::thread& t : pool)
    t.join();
  REQUIRE(ok);
  CHECK(D::calls == 2 * threads);  // each thread made its two maps once
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(same(first[t], again[t]));
  }
}
