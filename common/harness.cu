#include "harness.h"

#include "device.h"
#include "gemm_check.h"

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

namespace gemm {

KernelResources kernel_resources(const KernelInfo& k) {
  KernelResources r;
  if (!k.func) return r;
  cudaFuncAttributes attr{};
  CUDA_CHECK(cudaFuncGetAttributes(&attr, k.func));
  r.registers = attr.numRegs;
  r.static_smem = attr.sharedSizeBytes;
  r.dynamic_smem = k.dynamic_smem;
  r.local_bytes = attr.localSizeBytes;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.blocks_per_sm, k.func, k.threads,
                                                           k.dynamic_smem));
  int device = 0, max_threads = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  r.occupancy = double(r.blocks_per_sm) * k.threads / max_threads;
  return r;
}

namespace {

struct Row {
  std::string name;
  Precision precision;
  bool checked = false;
  CompareResult cmp;
  TimingStats time;
  KernelResources res;
  bool is_cublas = false;
};

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i)
    s += (i ? " " : "") + std::string(argv[i]);
  return s;
}

std::string program_name(const char* argv0) {
  std::string s = argv0 ? argv0 : "gemm";
  const auto slash = s.find_last_of('/');
  return slash == std::string::npos ? s : s.substr(slash + 1);
}

void write_csv(const std::string& path, const std::string& chapter, const Options& o,
               const DeviceInfo& d, const std::vector<Row>& rows, const std::string& cmd) {
  std::ifstream probe(path);
  const bool fresh = !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
  probe.close();
  std::ofstream out(path, std::ios::app);
  if (!out) throw std::runtime_error("cannot write CSV file '" + path + "'");
  if (fresh)
    out << "chapter,variant,precision,M,N,K,alpha,beta,check,max_abs_err,max_rel_err,err_over_tol,"
           "median_ms,min_ms,max_ms,reps,tflops,pct_fp32_peak,cublas_ms,ratio_to_cublas,registers,"
           "smem_bytes,blocks_per_sm,occupancy,gpu,cc,sms,clock_mhz,fp32_peak_tflops,driver,"
           "runtime,cublas,date,command\n";
  const double flops = 2.0 * o.m * o.n * o.k;
  for (const Row& r : rows) {
    double cublas_ms = 0.0;
    for (const Row& c : rows)
      if (c.is_cublas && c.precision == r.precision) cublas_ms = c.time.median_ms;
    char line[1024];
    std::snprintf(
        line, sizeof line,
        "%s,%s,%s,%d,%d,%d,%g,%g,%s,%.6g,%.6g,%.4g,%.6f,%.6f,%.6f,%d,%.4f,%.2f,%.6f,%.4f,%d,%zu,"
        "%d,%.3f,%s,%d.%d,%d,%.0f,%.2f,%s,%s,%d.%d.%d,%s,",
        r.is_cublas ? "cublas" : chapter.c_str(), r.name.c_str(), to_string(r.precision).c_str(),
        o.m, o.n, o.k, o.alpha, o.beta, r.checked ? (r.cmp.pass ? "PASS" : "FAIL") : "skipped",
        r.cmp.max_abs, r.cmp.max_rel, r.cmp.worst_ratio, r.time.median_ms, r.time.min_ms,
        r.time.max_ms, r.time.reps, flops / (r.time.median_ms * 1e-3) / 1e12,
        100.0 * flops / (r.time.median_ms * 1e-3) / d.fp32_peak_flops, cublas_ms,
        cublas_ms > 0 ? cublas_ms / r.time.median_ms : 0.0, r.res.registers,
        r.res.static_smem + r.res.dynamic_smem, r.res.blocks_per_sm, r.res.occupancy,
        d.name.c_str(), d.major, d.minor, d.sms, d.clock_khz / 1e3, d.fp32_peak_flops / 1e12,
        version_string(d.driver_version).c_str(), version_string(d.runtime_version).c_str(),
        d.cublas_version / 10000, (d.cublas_version / 100) % 100, d.cublas_version % 100,
        now_utc().c_str());
    out << line << '"' << cmd << "\"\n";
  }
}

int run(int argc, char** argv, const std::string& chapter, const std::vector<Variant>& variants) {
  const std::string prog = program_name(argc > 0 ? argv[0] : nullptr);
  Options o;
  try {
    o = parse_options(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << prog << ": " << e.what() << "\n" << usage(prog) << "\n";
    return 2;
  }
  std::string names;
  for (const Variant& v : variants)
    names += (names.empty() ? "" : ", ") + v.name;
  if (o.help) {
    std::cout << usage(prog) << "\n  variants: " << names << " (default " << variants[0].name
              << ")\n";
    return 0;
  }

  std::vector<const Variant*> selected;
  for (const Variant& v : variants)
    if (o.variant == "all" || v.name == o.variant || (o.variant.empty() && &v == &variants[0]))
      selected.push_back(&v);
  if (selected.empty()) {
    std::cerr << prog << ": unknown variant '" << o.variant << "'; this chapter has: " << names
              << ", all\n"
              << usage(prog) << "\n";
    return 2;
  }

  if (o.m == 0 || o.n == 0 || o.k == 0) {
    std::cout << prog << ": nothing to do: M=" << o.m << " N=" << o.n << " K=" << o.k
              << (o.k == 0 && o.m && o.n ? " (K=0 only scales C by beta)" : "")
              << "; no GEMM to check or time.\n";
    return 0;
  }
  const long long mk = 1LL * o.m * o.k, kn = 1LL * o.k * o.n, mn = 1LL * o.m * o.n;
  if (mk > INT_MAX || kn > INT_MAX || mn > INT_MAX) {
    std::cerr << prog << ": M=" << o.m << " N=" << o.n << " K=" << o.k
              << " gives a matrix of more than 2^31-1 elements, which the kernels' 32-bit "
                 "indexing cannot address.\n";
    return 2;
  }

  const DeviceInfo dev = query_device();
  bool fp16 = false;
  for (const Variant* v : selected)
    fp16 |= v->precision == Precision::FP16;
  const std::size_t need = problem_bytes(o.m, o.n, o.k, fp16, o.check) + 2 * size_t(dev.l2_bytes);
  if (need > dev.free_mem) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s: M=%d N=%d K=%d needs %.1f GiB of GPU memory; %s has %.1f GiB free.\n",
                  prog.c_str(), o.m, o.n, o.k, need / 1073741824.0, dev.name.c_str(),
                  dev.free_mem / 1073741824.0);
    std::cerr << text;
    return 1;
  }

  std::cout << describe(dev) << "\n";
  std::printf(
      "%s: M=%d N=%d K=%d alpha=%g beta=%g seed=%llu | median of %d reps after %d "
      "warm-ups, L2 flushed before each\n",
      chapter.c_str(), o.m, o.n, o.k, o.alpha, o.beta, static_cast<unsigned long long>(o.seed),
      o.reps, o.warmup);
  std::fflush(stdout);

  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Problem prob(o.m, o.n, o.k, o.seed, fp16);
  cublasHandle_t handle = cublas_handle();
  CUBLAS_CHECK(cublasSetStream(handle, stream));

  std::vector<Row> rows;
  bool all_pass = true;
  const auto check = [&](Row& row, const std::function<cudaError_t()>& launch) -> int {
    prob.reset_c(o.beta, stream);
    if (const cudaError_t err = launch(); err != cudaSuccess) {
      if (err == cudaErrorInvalidValue && !rejection_reason().empty()) {
        std::cerr << prog << " (" << row.name << "): " << rejection_reason() << "\n";
        return 2;
      }
      CUDA_CHECK(err);
    }
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (o.check) {
      row.checked = true;
      row.cmp = prob.check_c(row.precision, o.alpha, o.beta);
      if (!row.cmp.pass) {
        all_pass = false;
        std::cerr << chapter << " " << row.name << ": FAIL against the FP64 reference\n"
                  << report(row.cmp, o.n) << "\n";
      }
    }
    return 0;
  };

  for (const Variant* v : selected) {
    Row row;
    row.name = v->name;
    row.precision = v->precision;
    const auto launch = [&] { return v->launch(prob, o.alpha, o.beta, stream); };
    if (const int code = check(row, launch)) return code;
    row.res = kernel_resources(v->kernel);  // after a launch: it may raise the smem limit first
    row.time = time_launches([&] { CUDA_CHECK(launch()); }, o.warmup, o.reps, stream);
    rows.push_back(row);
  }
  if (o.cublas) {
    for (const Precision p : {Precision::FP32, Precision::TF32, Precision::FP16}) {
      bool wanted = false;
      for (const Variant* v : selected)
        wanted |= v->precision == p;
      if (!wanted) continue;
      Row row;
      row.name = "cublas_" + to_string(p);
      row.precision = p;
      row.is_cublas = true;
      const auto launch = [&] {
        cublas_gemm(handle, p, prob, o.alpha, o.beta);
        return cudaGetLastError();
      };
      check(row, launch);
      row.time = time_launches([&] { launch(); }, o.warmup, o.reps, stream);
      rows.push_back(row);
    }
  }

  const double flops = 2.0 * o.m * o.n * o.k;
  std::printf(
      "reference: %s FP64; |got - ref| <= atol + rtol*|ref|, rtol = 16*(u_in + "
      "2^-24*sqrt(K)), atol = rtol*rms(ref)\n",
      prob.used_cpu_reference() ? "CPU" : "cuBLAS DGEMM");
  std::printf("%-16s %-5s %-6s %8s %10s %9s %9s %8s %6s %9s %5s %7s %9s\n", "variant", "prec",
              "check", "err/tol", "median_ms", "min_ms", "max_ms", "TFLOP/s", "%peak", "x_cuBLAS",
              "regs", "smem_B", "occupancy");
  for (const Row& r : rows) {
    double cublas_ms = 0.0;
    for (const Row& c : rows)
      if (c.is_cublas && c.precision == r.precision) cublas_ms = c.time.median_ms;
    const double tflops = flops / (r.time.median_ms * 1e-3) / 1e12;
    char ratio[16] = "-", regs[16] = "-", smem[16] = "-", occ[16] = "-";
    if (cublas_ms > 0) std::snprintf(ratio, sizeof ratio, "%.3f", cublas_ms / r.time.median_ms);
    if (!r.is_cublas) {
      std::snprintf(regs, sizeof regs, "%d", r.res.registers);
      std::snprintf(smem, sizeof smem, "%zu", r.res.static_smem + r.res.dynamic_smem);
      std::snprintf(occ, sizeof occ, "%.0f%%", 100.0 * r.res.occupancy);
    }
    std::printf(
        "%-16s %-5s %-6s %8.3g %10.4f %9.4f %9.4f %8.2f %5.1f%% %9s %5s %7s %9s\n", r.name.c_str(),
        to_string(r.precision).c_str(), r.checked ? (r.cmp.pass ? "PASS" : "FAIL") : "-",
        r.cmp.worst_ratio, r.time.median_ms, r.time.min_ms, r.time.max_ms, tflops,
        100.0 * flops / (r.time.median_ms * 1e-3) / dev.fp32_peak_flops, ratio, regs, smem, occ);
  }
  for (const Row& r : rows) {
    // An FP32 kernel cannot beat the FP32 peak; if the timing says so, the timing is broken
    // (e.g. the launch escaped the events' stream), and no number of this run can be trusted.
    const double pct = 100.0 * flops / (r.time.median_ms * 1e-3) / dev.fp32_peak_flops;
    if (r.precision == Precision::FP32 && pct > 105.0) {
      std::cerr << chapter << " " << r.name << ": measured " << pct
                << "% of the FP32 peak, which is impossible: the timing is broken.\n";
      all_pass = false;
    }
  }
  if (!o.csv.empty()) write_csv(o.csv, chapter, o, dev, rows, command_line(argc, argv));
  CUDA_CHECK(cudaStreamDestroy(stream));
  return all_pass ? 0 : 1;
}

}  // namespace

int run_chapter(int argc, char** argv, const std::string& chapter,
                const std::vector<Variant>& variants) {
  try {
    return run(argc, argv, chapter, variants);
  } catch (const NoGpu& e) {
    std::cerr << chapter << ": " << e.what() << ".\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << chapter << ": out of host memory for this problem size.\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << chapter << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace gemm
