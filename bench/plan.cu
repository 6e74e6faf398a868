#include "plan.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <tuple>

namespace gemm_bench {
namespace {

struct Job {
  std::string table;  // "sizes": a chapter's defaults; "variants": the others; "shapes"; "beta"
  gemm::Shape shape;
  const Chapter* chapter;
  std::size_t variant;
  float beta = 0.0f;
};

bool same(const gemm::Shape& a, const gemm::Shape& b) {
  return a.m == b.m && a.n == b.n && a.k == b.k;
}
std::string name(const gemm::Shape& s) {  // "4096^3" or "16x8192x8192"
  return s.m == s.n && s.n == s.k ? std::to_string(s.m) + "^3"
                                  : std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                                        std::to_string(s.k);
}

// Every chapter's defaults at every size, then every other variant at kVariantSizes, then the
// FP16 and BF16 defaults at kShapes, then the FP16 defaults at kBetaShapes with each of kBetas;
// sorted by shape so that each problem is generated once.
std::vector<Job> plan(const std::vector<gemm::Shape>& shapes,
                      const std::vector<Chapter>& chapters) {
  std::vector<Job> jobs;
  for (const gemm::Shape& s : shapes)
    for (const Chapter& c : chapters)
      for (std::size_t v = 0; v < c.variants.size(); ++v)
        if (gemm::is_default(c.variants, v)) jobs.push_back({"sizes", s, &c, v});
  for (const int n : kVariantSizes)
    for (const Chapter& c : chapters)
      for (std::size_t v = 0; v < c.variants.size(); ++v)
        if (!gemm::is_default(c.variants, v)) jobs.push_back({"variants", {n, n, n}, &c, v});
  for (const gemm::Shape& s : kShapes)
    for (const Chapter& c : chapters)
      for (std::size_t v = 0; v < c.variants.size(); ++v)
        if (gemm::is_default(c.variants, v) && gemm::sixteen_bit(c.variants[v].precision))
          jobs.push_back({"shapes", s, &c, v});
  for (const gemm::Shape& s : kBetaShapes)
    for (const float beta : kBetas)
      for (const Chapter& c : chapters)
        for (std::size_t v = 0; v < c.variants.size(); ++v)
          if (gemm::is_default(c.variants, v) && c.variants[v].precision == gemm::Precision::FP16)
            jobs.push_back({"beta", s, &c, v, beta});
  std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
    return std::make_tuple(a.shape.m, a.shape.n, a.shape.k) <
           std::make_tuple(b.shape.m, b.shape.n, b.shape.k);
  });
  return jobs;
}

// The memory ceiling: a device-to-device copy of 2 GiB, timed like a kernel.
gemm::Measurement copy_ceiling(const gemm::Options& o, cudaStream_t stream) {
  const std::size_t bytes = std::size_t(1) << 31;
  gemm::DeviceBuffer<char> src(bytes), dst(bytes);
  CUDA_CHECK(cudaMemsetAsync(src.ptr, 1, bytes, stream));
  gemm::Measurement m;
  m.chapter = "ceiling";
  m.variant = "dram_copy_2GiB";
  m.table = "ceilings";
  m.bytes = 2.0 * bytes;  // read + written
  m.time = gemm::time_launches(
      [&] {
        CUDA_CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice, stream));
      },
      o.warmup, o.reps, stream);
  std::printf("device copy: %.0f GB/s (bytes read + written)\n", m.gb_per_s());
  return m;
}

int run_plan(int argc, char** argv, const std::vector<Chapter>& chapters) {
  const std::string prog = gemm::program_name(argc > 0 ? argv[0] : nullptr);
  gemm::Options o;
  if (!gemm::parse_or_explain(argc, argv, prog, o)) return 2;
  if (o.help) {
    std::cout << gemm::usage(prog)
              << "\n  Runs every chapter's default kernel(s) and cuBLAS at each of --sizes, every "
                 "other variant at 1024, 2048, 3000 and 4096, the FP16 and BF16 defaults at "
                 "skinny and rectangular shapes and the FP16 defaults with beta 0.5 and 1 "
                 "(bench/plan.h), and a device-to-device copy; one "
                 "CSV (--csv).\n";
    return 0;
  }
  if (o.sizes.empty()) o.sizes = kDefaultSizes;
  std::vector<gemm::Shape> shapes = gemm::shapes_of(o);
  if (const auto code = gemm::refuse_shapes(prog, shapes)) return *code;
  for (const int n : kVariantSizes)
    shapes.push_back({n, n, n});
  shapes.insert(shapes.end(), kShapes.begin(), kShapes.end());
  shapes.insert(shapes.end(), kBetaShapes.begin(), kBetaShapes.end());
  const gemm::DeviceInfo dev = gemm::query_device();
  if (!gemm::fits(prog, shapes, true, o.check, dev)) return 1;
  std::cout << gemm::describe(dev) << "\n";

  const std::vector<Job> jobs = plan(gemm::shapes_of(o), chapters);
  gemm::StreamGuard guard;
  CUBLAS_CHECK(cublasSetStream(gemm::cublas_handle(), guard.stream));
  std::vector<gemm::Measurement> all;
  std::vector<const Chapter*> skipped;
  std::unique_ptr<gemm::Problem> prob;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const Job& j = jobs[i];
    if (!prob || !same({prob->M, prob->N, prob->K}, j.shape)) {
      prob.reset();  // free the previous shape first
      prob = std::make_unique<gemm::Problem>(j.shape.m, j.shape.n, j.shape.k, o.seed, true,
                                             o.offset);
      for (const gemm::Precision p :
           {gemm::Precision::FP32, gemm::Precision::TF32, gemm::Precision::FP16,
            gemm::Precision::BF16}) {
        gemm::Measurement m = gemm::measure_cublas(p, *prob, o, guard.stream);
        m.table = "cublas";
        all.push_back(m);
      }
    }
    const gemm::Variant& v = j.chapter->variants[j.variant];
    if (std::find(skipped.begin(), skipped.end(), j.chapter) != skipped.end()) continue;
    // cuBLAS again right before the kernel, unchecked, so that both run at about the same clock:
    // under tensor load the clock falls as the run goes on, and the ratio to a cuBLAS timed at the
    // start of the size would favour cuBLAS (gemm::cublas_ms picks this nearest row).
    gemm::Options with_beta = o;
    with_beta.beta = j.beta;
    gemm::Options unchecked = with_beta;
    unchecked.check = false;
    gemm::Measurement pair = gemm::measure_cublas(v.precision, *prob, unchecked, guard.stream);
    pair.table = "pair";
    gemm::Measurement m;
    try {
      m = gemm::measure_kernel(j.chapter->name, v, *prob, with_beta, guard.stream);
    } catch (const gemm::Rejected& e) {
      // The sizes are valid for every chapter: a refusal is about this GPU (11-17 need Hopper), so
      // the chapter is left out and the others go on.
      std::cerr << prog << ": " << j.chapter->name << " (" << v.name << ") at " << name(j.shape)
                << ": " << e.what() << "; skipping " << j.chapter->name << "\n";
      skipped.push_back(j.chapter);
      continue;
    }
    m.table = j.table;
    all.push_back(pair);
    all.push_back(m);
    const double ref = gemm::cublas_ms(all, all.back());
    char tag[32] = "";
    if (j.beta != 0.0f) std::snprintf(tag, sizeof tag, " beta %g", j.beta);
    std::printf(
        "[%3zu/%zu] %-20s %-26s %-15s %-10s %10.4f ms %8.2f TFLOP/s %6.3f x cuBLAS %s%s%s\n", i + 1,
        jobs.size(), j.chapter->name.c_str(), v.name.c_str(),
        (name(j.shape) + tag).c_str(), m.access.c_str(),
        m.time.median_ms, m.tflops(), ref > 0 ? ref / m.time.median_ms : 0.0,
        m.checked ? (m.cmp.pass ? "PASS" : "FAIL") : "-", m.note.empty() ? "" : " | ",
        m.note.c_str());
    std::fflush(stdout);
  }
  prob.reset();
  all.push_back(copy_ceiling(o, guard.stream));
  const bool ok = gemm::report_failures(all, dev);
  if (!o.csv.empty()) gemm::append_csv(o.csv, all, dev, gemm::command_line(argc, argv));
  return ok ? 0 : 1;
}

}  // namespace

int run(int argc, char** argv, const std::vector<Chapter>& chapters) {
  return gemm::guarded("gemm_bench", [&] { return run_plan(argc, argv, chapters); });
}

}  // namespace gemm_bench
