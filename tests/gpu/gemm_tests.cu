#include "gemm_tests.h"

#include "gemm_check.h"

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace gemm_tests {
namespace {

struct Shape {
  int M, N, K;
};

struct AlphaBeta {
  float alpha, beta;
};

// Every launcher must compute every shape. 1x1x1, odd sizes, sizes around 32/64/128-wide tile
// edges, K = 0 and K below the k-tile, tall-skinny and short-wide, a matrix-vector product,
// 1000-ish, 4096 +- 1, one big square and one taller than a grid, and two with more tiles than
// blocks fit on the GPU at once. Some keep K and N multiples of 4
// or 8 so that the 16-byte paths run them too (on aligned buffers).
const Shape kShapes[] = {
    {1, 1, 1},
    {3, 5, 7},
    {33, 65, 17},
    {127, 129, 131},
    {129, 127, 125},
    {1024, 1, 1024},
    {777, 1023, 333},
    {96, 2048, 4100},
    {4095, 4095, 4095},
    {4097, 4097, 4097},
    {9000000, 1, 1},  // more row blocks than gridDim.y holds: launched in slices
    {1, 4, 4},
    {5, 8, 12},
    {7, 12, 0},
    {33, 68, 20},
    {127, 132, 36},
    {129, 124, 44},
    {128, 128, 128},
    {255, 260, 68},
    {2000, 4, 64},
    {4, 2000, 32},
    {16, 16, 4096},
    {1000, 1004, 1000},
    {2048, 2048, 2048},
    // N and K multiples of 8 (16-bit inputs' 16-byte copies), M and N off every tile size.
    {7, 8, 8},
    {33, 72, 24},
    {129, 136, 40},
    {200, 200, 8},
    {1000, 1000, 1000},
    // More tiles of C than fit on the GPU at once, so that persistent blocks (14-27) loop over
    // several: one k-tile (K = 8), and a few with edges everywhere.
    {4096, 4096, 8},
    {3000, 2056, 200},
};

// Small shapes get every pair; large ones the plain product and one general pair.
const AlphaBeta kAllPairs[] = {
    {1.0f, 0.0f}, {1.0f, 1.0f}, {-1.5f, 0.25f}, {0.5f, -2.0f}, {0.0f, 1.0f}};
const AlphaBeta kLargePairs[] = {{1.0f, 0.0f}, {-1.5f, 0.25f}};

std::string describe(const gemm::Variant& v, const Shape& s, const AlphaBeta& ab, int offset) {
  return v.name + " M=" + std::to_string(s.M) + " N=" + std::to_string(s.N) +
         " K=" + std::to_string(s.K) + " alpha=" + std::to_string(ab.alpha) +
         " beta=" + std::to_string(ab.beta) + " offset=" + std::to_string(offset);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Whether the variant reads 16-bit inputs (FP16 or BF16): its Problem needs the rounded copies.
bool sixteen(const gemm::Variant& v) {
  return gemm::sixteen_bit(v.precision);
}

cudaError_t run(const gemm::Variant& v, gemm::Problem& p, float alpha, float beta,
                gemm::LaunchInfo* info = nullptr, cudaStream_t stream = nullptr) {
  return v.launch(p, alpha, beta, stream, info);
}

// v on prob, C first reset for beta (NaN where beta is 0): the launch succeeds, and C passes the
// check against the FP64 reference. info receives the launch's report.
void require_pass(const gemm::Variant& v, gemm::Problem& prob, AlphaBeta ab,
                  gemm::LaunchInfo* info = nullptr) {
  prob.reset_c(ab.beta, nullptr);
  REQUIRE(v.launch(prob, ab.alpha, ab.beta, nullptr, info) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  const gemm::CompareResult r = prob.check_c(v.precision, ab.alpha, ab.beta);
  INFO(gemm::report(r, prob.N));
  REQUIRE(r.pass);
}

// v's launcher on M x N x K (not p's own sizes: the argument checks) with p's inputs of v's
// precision, A replaced by null where asked, into c.
cudaError_t run_on(const gemm::Variant& v, gemm::Problem& p, int M, int N, int K, float alpha,
                   bool null_a, float beta, float* c, gemm::LaunchInfo* info) {
  if (v.sgemm)
    return v.sgemm(M, N, K, alpha, null_a ? nullptr : p.A.ptr, p.B.ptr, beta, c, nullptr, info);
  if (v.bgemm)
    return v.bgemm(M, N, K, alpha, null_a ? nullptr : p.Abf.ptr, p.Bbf.ptr, beta, c, nullptr,
                   info);
  return v.hgemm(M, N, K, alpha, null_a ? nullptr : p.A16.ptr, p.B16.ptr, beta, c, nullptr, info);
}

cudaError_t run(EntryPoint e, gemm::Problem& p, float alpha, float beta,
                cudaStream_t stream = nullptr) {
  if (e.sgemm) return e.sgemm(p.M, p.N, p.K, alpha, p.A.ptr, p.B.ptr, beta, p.C.ptr, stream);
  if (e.bgemm) return e.bgemm(p.M, p.N, p.K, alpha, p.Abf.ptr, p.Bbf.ptr, beta, p.C.ptr, stream);
  return e.hgemm(p.M, p.N, p.K, alpha, p.A16.ptr, p.B16.ptr, beta, p.C.ptr, stream);
}

// A[at] = value in the copy v reads (and in the FP32 one, which the others are rounded from).
void set_a(const gemm::Variant& v, gemm::Problem& p, std::size_t at, float value) {
  CUDA_CHECK(cudaMemcpy(p.A.ptr + at, &value, sizeof value, cudaMemcpyHostToDevice));
  if (v.precision == gemm::Precision::FP16) {
    const __half h = __float2half(value);
    CUDA_CHECK(cudaMemcpy(p.A16.ptr + at, &h, sizeof h, cudaMemcpyHostToDevice));
  } else if (v.precision == gemm::Precision::BF16) {
    const __nv_bfloat16 h = __float2bfloat16(value);
    CUDA_CHECK(cudaMemcpy(p.Abf.ptr + at, &h, sizeof h, cudaMemcpyHostToDevice));
  }
}

}  // namespace

gemm::Variant find(const std::vector<gemm::Variant>& variants, const std::string& name,
                   gemm::Precision p) {
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (variants[i].name == name ||
        (name.empty() && variants[i].precision == p && gemm::is_default(variants, i)))
      return variants[i];
  FAIL("no variant '" << name << "' in this chapter's main.cu");
  return variants.front();
}

void require_hopper(const std::vector<gemm::Variant>& variants) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) std::exit(77);
  gemm::Problem tiny(8, 8, 8, 1, true);
  gemm::LaunchInfo info;
  if (find(variants, "", gemm::Precision::FP16).launch(tiny, 1.0f, 0.0f, nullptr, &info) ==
      cudaErrorInvalidValue) {
    std::printf("%s: skipped\n", info.why.c_str());
    std::exit(77);
  }
}

gemm::Variant EntryPoint::default_of(const std::vector<gemm::Variant>& variants) const {
  for (const gemm::Variant& v : variants)
    if ((sgemm && v.sgemm) || (hgemm && v.hgemm) || (bgemm && v.bgemm)) return v;
  FAIL("the chapter's main.cu has no variant of this entry point's input type");
  return variants.front();
}

// Each shape on aligned buffers (offset 0) and with offset pointers (offset 1: A, B and C one
// element past an aligned address, so the 16-byte path never applies).
void check_shape_matrix(const gemm::Variant& v, const Paths& paths) {
  std::uint64_t seed = 100;
  for (const Shape& s : kShapes)
    for (const int offset : {0, 1}) {
      gemm::Problem prob(s.M, s.N, s.K, ++seed, sixteen(v), offset);
      const bool small = double(s.M) * s.N * s.K < (1 << 22);
      const AlphaBeta* begin = small ? std::begin(kAllPairs) : std::begin(kLargePairs);
      const AlphaBeta* end = small ? std::end(kAllPairs) : std::end(kLargePairs);
      for (const AlphaBeta* ab = begin; ab != end; ++ab) {
        INFO(describe(v, s, *ab, offset));
        prob.reset_c(ab->beta, nullptr);
        gemm::LaunchInfo info;
        const cudaError_t err = run(v, prob, ab->alpha, ab->beta, &info);
        INFO("launch: " << cudaGetErrorString(err) << " " << info.why);
        REQUIRE(err == cudaSuccess);
        // The wide path exactly when K and N are multiples of the vector width and A, B, C
        // 16-byte aligned.
        const bool wide =
            paths.per_16 > 0 && s.K % paths.per_16 == 0 && s.N % paths.per_16 == 0 && !offset;
        CHECK(info.access == (s.K == 0 && paths.empty_k ? paths.empty_k
                              : wide                    ? paths.wide
                                                        : paths.narrow));
        const gemm::CompareResult r = prob.check_c(v.precision, ab->alpha, ab->beta);
        INFO(gemm::report(r, s.N));
        REQUIRE(r.pass);
      }
    }
}

void check_rejected_arguments(const gemm::Variant& v) {
  gemm::Problem prob(8, 8, 8, 3, sixteen(v));
  gemm::LaunchInfo info;
  const auto call = [&](int M, int N, int K, bool null_a) {
    return run_on(v, prob, M, N, K, 1.0f, null_a, 0.0f, prob.C.ptr, &info);
  };
  prob.reset_c(1.0f, nullptr);
  const std::vector<float> before = prob.C.to_host();

  CHECK(call(-5, 8, 8, false) == cudaErrorInvalidValue);
  CHECK(info.why == "sizes must be >= 0; got M=-5 N=8 K=8");
  CHECK(call(8, -1, 8, false) == cudaErrorInvalidValue);
  CHECK(call(8, 8, -4, false) == cudaErrorInvalidValue);
  CHECK(call(8, 8, 8, true) == cudaErrorInvalidValue);
  CHECK(info.why.find("null") != std::string::npos);
  // 2^16 x 2^16 elements would overflow the kernels' int indexing: refused, never launched
  // (a launch would run far past these 8x8 buffers).
  CHECK(call(65536, 8, 65536, false) == cudaErrorInvalidValue);
  CHECK(call(8, 65536, 65536, false) == cudaErrorInvalidValue);
  CHECK(call(65536, 65536, 8, false) == cudaErrorInvalidValue);
  CHECK(info.why.find("2^31-1") != std::string::npos);
  // Empty problems are not errors and touch nothing.
  CHECK(call(0, 8, 8, false) == cudaSuccess);
  CHECK(info.why.empty());
  CHECK(call(8, 0, 8, false) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(same_bits(before, prob.C.to_host()));
}

void check_nonfinite_propagation(const gemm::Variant& v) {
  const Shape s{67, 72, 40};  // edge tiles in M and N; N and K fit every vector width
  for (const float bad : {NAN, INFINITY}) {
    gemm::Problem prob(s.M, s.N, s.K, 9, sixteen(v));
    const std::vector<double> clean = prob.reference(v.precision, 1.0f, 0.0f);
    const int bad_row = 40, bad_k = 17;
    set_a(v, prob, std::size_t(bad_row) * s.K + bad_k, bad);
    prob.reset_c(0.0f, nullptr);
    REQUIRE(run(v, prob, 1.0f, 0.0f) == cudaSuccess);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<float> got = prob.C.to_host();
    for (int i = 0; i < s.M; ++i)
      for (int j = 0; j < s.N; ++j) {
        const float g = got[std::size_t(i) * s.N + j];
        INFO(v.name << " bad=" << bad << " C[" << i << ", " << j << "] = " << g);
        if (i == bad_row) {
          REQUIRE_FALSE(std::isfinite(g));  // NaN stays NaN; Inf becomes +-Inf or NaN
          if (std::isnan(bad)) REQUIRE(std::isnan(g));
        } else {
          REQUIRE(std::isfinite(g));
        }
      }
    // Rows without the bad element still match the clean reference.
    std::vector<float> rest(got);
    std::vector<double> ref(clean);
    rest.erase(rest.begin() + bad_row * s.N, rest.begin() + (bad_row + 1) * s.N);
    ref.erase(ref.begin() + bad_row * s.N, ref.begin() + (bad_row + 1) * s.N);
    const gemm::Tolerance tol =
        gemm::tolerance_for(v.precision, s.K, gemm::rms(clean.data(), clean.size()));
    const gemm::CompareResult r = gemm::allclose(rest.data(), ref.data(), rest.size(), tol);
    INFO(gemm::report(r, s.N));
    REQUIRE(r.pass);
  }
}

void check_corruption_is_caught(const gemm::Variant& v) {
  const Shape s{129, 136, 72};
  gemm::Problem prob(s.M, s.N, s.K, 11, sixteen(v));
  prob.reset_c(0.0f, nullptr);
  REQUIRE(run(v, prob, 1.0f, 0.0f) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<double>& ref = prob.reference(v.precision, 1.0f, 0.0f);
  std::vector<float> got = prob.C.to_host();
  const gemm::Tolerance tol =
      gemm::tolerance_for(v.precision, s.K, gemm::rms(ref.data(), ref.size()));
  REQUIRE(gemm::allclose(got.data(), ref.data(), got.size(), tol).pass);
  REQUIRE(prob.check_c(v.precision, 1.0f, 0.0f).pass);

  const std::size_t bad = got.size() / 2 + 3;
  got[bad] += static_cast<float>(3.0 * (tol.atol + tol.rtol * std::fabs(ref[bad])));
  const gemm::CompareResult r = gemm::allclose(got.data(), ref.data(), got.size(), tol);
  CHECK_FALSE(r.pass);
  CHECK(r.mismatches == 1);
  CHECK(r.first_bad == bad);
  // The device check, which the shape matrix relies on, says the same.
  CUDA_CHECK(cudaMemcpy(prob.C.ptr + bad, &got[bad], sizeof(float), cudaMemcpyHostToDevice));
  const gemm::CompareResult d = prob.check_c(v.precision, 1.0f, 0.0f);
  CHECK_FALSE(d.pass);
  CHECK(d.mismatches == 1);
  CHECK(d.first_bad == bad);
  CHECK(d.first_got == r.first_got);
}

// The entry point and its default variant on one problem: the same bits in C. K = 136 is never
// split (the split rule wants chunks of at least 128; 17-24 share out no tile of 3 k-tiles),
// so no atomics reorder the sums.
void check_entry_point_runs_default(EntryPoint e, const gemm::Variant& v) {
  gemm::Problem prob(1000, 2048, 136, 21, sixteen(v));
  prob.reset_c(0.5f, nullptr);
  REQUIRE(run(e, prob, 1.5f, 0.5f) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> from_entry = prob.C.to_host();
  prob.reset_c(0.5f, nullptr);
  gemm::LaunchInfo info;
  REQUIRE(run(v, prob, 1.5f, 0.5f, &info) == cudaSuccess);
  CHECK(info.k_splits == 1);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(same_bits(from_entry, prob.C.to_host()));
  CHECK(prob.check_c(v.precision, 1.5f, 0.5f).pass);
}

// The process's first calls of the entry point, from four host threads at once, each on a
// non-blocking stream of its own and its own problem: launchers that cache per-device state
// must build it safely.
void check_concurrent_first_calls(EntryPoint e, const gemm::Variant& v) {
  constexpr int kThreads = 4;
  std::vector<std::unique_ptr<gemm::Problem>> probs;
  for (int t = 0; t < kThreads; ++t) {
    probs.push_back(std::make_unique<gemm::Problem>(300 + 64 * t, 520, 200, 31 + t, sixteen(v)));
    probs.back()->reset_c(0.0f, nullptr);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::atomic<int> ready{0};
  cudaError_t errs[kThreads];
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      cudaStream_t stream = nullptr;
      errs[t] = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
      ++ready;
      while (ready < kThreads)
        std::this_thread::yield();
      if (!errs[t]) errs[t] = run(e, *probs[t], 1.0f, 0.0f, stream);
      if (!errs[t]) errs[t] = cudaStreamSynchronize(stream);
      if (stream) cudaStreamDestroy(stream);
    });
  for (std::thread& t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t << ": " << cudaGetErrorString(errs[t]));
    REQUIRE(errs[t] == cudaSuccess);
    const gemm::CompareResult r = probs[t]->check_c(v.precision, 1.0f, 0.0f);
    INFO(gemm::report(r, probs[t]->N));
    CHECK(r.pass);
  }
}

// A and B aligned, C only 4-byte aligned (M=300, N=520, K=200, beta 0 and 0.25): TMA still reads A
// and B, and C is written element by element from the registers (the store through shared memory
// and the 8-byte stores need more).
void check_c_one_past_aligned(const gemm::Variant& v) {
  for (const float beta : {0.0f, 0.25f}) {
    const int M = 300, N = 520, K = 200;
    const float alpha = -1.5f;
    INFO("M=" << M << " N=" << N << " K=" << K << " alpha=" << alpha << " beta=" << beta);
    gemm::Problem prob(M, N, K, 77, true);
    prob.reset_c(beta, nullptr);
    gemm::DeviceBuffer<float> c(std::size_t(M) * N, 1);
    CUDA_CHECK(cudaMemcpy(c.ptr, prob.C.ptr, c.count * sizeof(float), cudaMemcpyDeviceToDevice));
    gemm::LaunchInfo info;
    REQUIRE(run_on(v, prob, M, N, K, alpha, false, beta, c.ptr, &info) == cudaSuccess);
    CHECK(info.access == "tma");
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(prob.C.ptr, c.ptr, c.count * sizeof(float), cudaMemcpyDeviceToDevice));
    const gemm::CompareResult r = prob.check_c(v.precision, alpha, beta);
    INFO(gemm::report(r, N));
    REQUIRE(r.pass);
  }
}

// M x N x K (1024 x 1024 x 4096 unless told) with beta 0 and 0.5, twice each: the launcher
// reports k_splits (17-24: the most clusters sharing one tile), the two runs give the same bits
// (the pieces of a shared tile go into C in a fixed order) and the result passes the check. C
// starts as NaN for beta 0, so the first piece must store, not add.
void check_shared_out_same_bits(const gemm::Variant& v, int k_splits, int M, int N, int K) {
  for (const float beta : {0.0f, 0.5f}) {
    INFO(v.name << " beta=" << beta);
    gemm::Problem prob(M, N, K, 78, true);
    std::vector<float> first;
    for (int run = 0; run < 2; ++run) {
      prob.reset_c(beta, nullptr);
      gemm::LaunchInfo info;
      REQUIRE(v.launch(prob, 1.0f, beta, nullptr, &info) == cudaSuccess);
      CHECK(info.k_splits == k_splits);
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<float> got = prob.C.to_host();
      if (run == 0) first = got;
      CHECK(same_bits(first, got));
    }
    const gemm::CompareResult r = prob.check_c(v.precision, 1.0f, beta);
    INFO(gemm::report(r, N));
    REQUIRE(r.pass);
  }
}

void check_shared_out_as_launched(const gemm::Variant& v, int M, int N, int K) {
  gemm::Problem prob(M, N, K, 79, true);
  gemm::LaunchInfo info;
  REQUIRE(v.launch(prob, 1.0f, 0.0f, nullptr, &info) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  INFO(v.name << " " << M << " x " << N << " x " << K);
  REQUIRE(info.k_splits > 1);
  check_shared_out_same_bits(v, info.k_splits, M, N, K);
}

void check_rule_note(const gemm::Variant& v, const gemm::Shape& s, const char* note) {
  INFO(s.m << " x " << s.n << " x " << s.k);
  gemm::Problem prob(s.m, s.n, s.k, 7, true);
  gemm::LaunchInfo info;
  REQUIRE(v.launch(prob, 1.0f, 0.5f, nullptr, &info) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  INFO("note: " << info.note);
  CHECK(info.note.rfind(note, 0) == 0);
}

// One small launch first (the one-time probes), then every byte of the GPU taken in chunks down
// to 1 MB: the launch on an M x N x K problem must fail with cudaErrorMemoryAllocation, say `why`
// and leave C untouched.
void check_no_memory(const gemm::Variant& v, int M, int N, int K, const char* why) {
  gemm::Problem small(64, 64, 64, 5, true), prob(M, N, K, 6, true);
  gemm::LaunchInfo info;
  REQUIRE(v.launch(small, 1.0f, 0.0f, nullptr, &info) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  prob.reset_c(0.5f, nullptr);
  const std::vector<float> before = prob.C.to_host();
  std::vector<void*> taken;
  for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20); chunk /= 2) {
    void* p = nullptr;
    while (cudaMalloc(&p, chunk) == cudaSuccess)
      taken.push_back(p);
    cudaGetLastError();
  }
  const cudaError_t err = v.launch(prob, 1.0f, 0.5f, nullptr, &info);
  for (void* p : taken)
    CUDA_CHECK(cudaFree(p));
  CHECK(err == cudaErrorMemoryAllocation);
  CHECK(info.why.find(why) != std::string::npos);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(same_bits(before, prob.C.to_host()));
}

// 8192 x 4096: at 256 columns 32 x 16 cluster tiles on 66 clusters, 7 or 8 each (more at the
// narrower widths of 19); each K gives ceil(K / 64) k-tiles per tile.
void check_short_pieces(const gemm::Variant& v, std::initializer_list<int> Ks, std::uint64_t seed) {
  for (const int K : Ks) {
    INFO(v.name << " K=" << K);
    gemm::Problem prob(8192, 4096, K, seed, true);
    require_pass(v, prob, {1.5f, 0.0f});
  }
}

// 20: the transposed product's shapes. N = 4104 and 8200 make 17 and 33 cluster tiles of 256
// rows of C^T, fewer than the clusters, so K >= 2048 gives each two ranges of k-tiles (odd k-tile
// counts: some tiles in three pieces of unequal length); 999 x 1001 is copied into aligned
// scratch first.
void check_skinny(const gemm::Variant& v) {
  const Shape shapes[] = {{1, 4104, 2056},  {16, 4104, 2056}, {17, 1000, 1000},
                          {32, 999, 1001},  {33, 8200, 4096}, {64, 4096, 520},
                          {65, 2000, 3000}, {100, 8192, 2048}, {128, 4104, 4100}};
  std::uint64_t seed = 300;
  for (const Shape& s : shapes)
    for (const AlphaBeta ab : {AlphaBeta{1.0f, 0.0f}, AlphaBeta{-1.5f, 0.5f}}) {
      INFO(describe(v, s, ab, 0));
      gemm::Problem prob(s.M, s.N, s.K, ++seed, true);
      require_pass(v, prob, ab);
    }
}

// 21: A, B and C 0, 1, 3 and 7 elements past an aligned address, so that the copy's 16-byte
// chunks start at every other shift (odd K and N shift each row further); K and N odd and even
// (N = 1022 at offset 0: rows 8-byte aligned, so beta takes the 8-byte stores); 600 x 601 x 2048
// shares tiles out among clusters (stream-K's later pieces add into C's unaligned rows); beta 0
// and 0.5. Every shape is copied, and the note says by stage_kernel; rows: the variant writes
// C's unaligned rows from the buffers where the product is not C^T (the note says which), with
// beta only where C's rows are not 8-byte aligned unless rows_with_beta (23: beta in C first).
void check_staged(const gemm::Variant& v, bool rows, bool rows_with_beta, bool shares_out) {
  const Shape shapes[] = {
      {333, 777, 1001}, {1, 4095, 520}, {520, 1023, 72}, {300, 1022, 520}, {600, 601, 2048}};
  std::uint64_t seed = 400;
  for (const Shape& s : shapes)
    for (const int offset : {0, 1, 3, 7})
      for (const AlphaBeta ab : {AlphaBeta{1.0f, 0.0f}, AlphaBeta{-1.5f, 0.5f}}) {
        INFO(describe(v, s, ab, offset));
        gemm::Problem prob(s.M, s.N, s.K, ++seed, true, offset);
        gemm::LaunchInfo info;
        require_pass(v, prob, ab, &info);
        INFO("note: " << info.note);
        CHECK(info.access == "tma staged");
        CHECK(info.note.find("copied by stage_kernel") != std::string::npos);
        const bool transposed = info.note.rfind("C^T", 0) == 0;
        const bool pairs = s.N % 2 == 0 && offset % 2 == 0;
        CHECK((info.note.find("C's rows written whole") != std::string::npos) ==
              (rows && !transposed && (ab.beta == 0.0f || !pairs || rows_with_beta)));
        if (s.M == 600 && shares_out) CHECK(info.k_splits > 1);
      }
}

}  // namespace gemm_tests
