#include "harness.h"

#include "device.h"
#include "gemm_check.h"
#include "npy.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
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
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.blocks_per_sm, k.func, k.threads,
                                                           k.dynamic_smem));
  int device = 0, max_threads = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  r.occupancy = double(r.blocks_per_sm) * k.threads / max_threads;
  return r;
}

namespace {

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return text;
}

// A double as JSON: every digit a float or double needs to round-trip (check_npy.py recomputes
// alpha * A @ B + beta * C from these and must land within 1e-12 of the reference), and null for
// NaN or Inf, which JSON cannot spell.
std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The folder of one dump: <dir>/<variant>_<M>x<N>x<K>. The benchmark runner measures several
// chapters in one process, and two chapters may name a variant alike; the second one seen gets
// the chapter as a prefix rather than overwrite the first.
std::string dump_folder(const Options& o, const Measurement& m) {
  static std::map<std::string, std::string> owner;  // folder name -> the chapter that wrote it
  std::string name =
      m.variant + "_" + std::to_string(m.M) + "x" + std::to_string(m.N) + "x" + std::to_string(m.K);
  if (const auto it = owner.find(name); it != owner.end() && it->second != m.chapter)
    name = m.chapter + "_" + name;
  owner.emplace(name, m.chapter);
  return o.dump + "/" + name;
}

// Writes what the checked run saw and produced, for scripts/check_npy.py: A and B as the kernel
// read them (FP16 variants: the rounded __half values; BF16: theirs, as float32, which numpy
// has no 16-bit type for), C before and after the launch, the FP64
// reference the harness compared against, and the harness's tolerance and verdict.
void dump_checked_run(const Measurement& m, Problem& prob, const Options& o,
                      const std::vector<float>& c_before) {
  const std::string dir = dump_folder(o, m);
  create_folder(dir);
  const std::size_t M = prob.M, N = prob.N, K = prob.K;
  if (m.precision == Precision::FP16) {
    const std::vector<__half> a = prob.A16.to_host(), b = prob.B16.to_host();
    write_npy(dir + "/A.npy", NpyType::F2, {M, K}, a.data());
    write_npy(dir + "/B.npy", NpyType::F2, {K, N}, b.data());
  } else if (m.precision == Precision::BF16) {
    write_npy(dir + "/A.npy", {M, K}, widened(prob.Abf).data());
    write_npy(dir + "/B.npy", {K, N}, widened(prob.Bbf).data());
  } else {
    write_npy(dir + "/A.npy", {M, K}, prob.A.to_host().data());
    write_npy(dir + "/B.npy", {K, N}, prob.B.to_host().data());
  }
  write_npy(dir + "/C_before.npy", {M, N}, c_before.data());
  write_npy(dir + "/C.npy", {M, N}, prob.C.to_host().data());
  write_npy(dir + "/ref.npy", {M, N}, prob.reference(m.precision, o.alpha, o.beta).data());
  std::ostringstream meta;
  meta << "{\n  \"chapter\": " << json_string(m.chapter)
       << ",\n  \"variant\": " << json_string(m.variant) << ",\n  \"M\": " << m.M
       << ",\n  \"N\": " << m.N << ",\n  \"K\": " << m.K
       << ",\n  \"alpha\": " << json_number(o.alpha) << ",\n  \"beta\": " << json_number(o.beta)
       << ",\n  \"seed\": " << o.seed
       << ",\n  \"precision\": " << json_string(to_string(m.precision)) << ",\n  \"reference\": "
       << json_string(prob.used_cpu_reference() ? "CPU FP64" : "cuBLAS DGEMM")
       << ",\n  \"rtol\": " << json_number(m.cmp.tol.rtol)
       << ",\n  \"atol\": " << json_number(m.cmp.tol.atol)
       << ",\n  \"verdict\": " << json_string(m.cmp.pass ? "PASS" : "FAIL")
       << ",\n  \"mismatches\": " << m.cmp.mismatches
       << ",\n  \"worst_ratio\": " << json_number(m.cmp.worst_ratio) << "\n}\n";
  write_text(dir + "/meta.json", meta.str());
}

// Runs `launch` once on a reset C and compares C with the FP64 reference; then times it.
// why: the launcher's sentence when it refuses (LaunchInfo::why), read after a failed launch.
void check_and_time(Measurement& m, Problem& prob, const Options& o, cudaStream_t stream,
                    const std::function<cudaError_t()>& launch, const std::string& why) {
  prob.reset_c(o.beta, stream);
  const bool dump = o.check && !o.dump.empty();
  std::vector<float> c_before;
  if (dump) {
    // reset_c ran on `stream`, which does not synchronize with the legacy default stream that
    // to_host copies on: wait for it, or the copy could see the previous kernel's C.
    CUDA_CHECK(cudaStreamSynchronize(stream));
    c_before = prob.C.to_host();
  }
  if (const cudaError_t err = launch(); err != cudaSuccess) {
    if (!why.empty()) throw Rejected(why);
    CUDA_CHECK(err);
  }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  if (o.check) {
    m.checked = true;
    m.cmp = prob.check_c(m.precision, o.alpha, o.beta);
  }
  // Before the timed launches, which overwrite C (with beta != 0 they accumulate into it).
  if (dump) dump_checked_run(m, prob, o, c_before);
  PowerSampler power;
  power.start();
  m.time = time_launches([&] { CUDA_CHECK(launch()); }, o.warmup, o.reps, stream);
  m.power_w = power.stop(m.power_readings);
  m.sm_clock_mhz = m.time.sm_clock_mhz;
  m.sm_clock_min_mhz = m.time.sm_clock_min_mhz;
}

Measurement base(const std::string& chapter, const std::string& variant, Precision p,
                 const Problem& prob, const Options& o) {
  Measurement m;
  m.chapter = chapter;
  m.variant = variant;
  m.precision = p;
  m.M = prob.M;
  m.N = prob.N;
  m.K = prob.K;
  m.alpha = o.alpha;
  m.beta = o.beta;
  m.offset = prob.offset;
  return m;
}

// The row's TFLOP/s as a share of the dense peak of its precision, at the maximum SM clock and at
// the clock measured after its timed launches; 0 where the peak or the clock is unknown.
double pct_peak(const Measurement& r, const DeviceInfo& d) {
  const double peak = peak_flops(d, r.precision);
  return peak > 0 ? 100.0 * r.tflops() * 1e12 / peak : 0.0;
}
double pct_peak_at_clock(const Measurement& r, const DeviceInfo& d) {
  return r.sm_clock_mhz > 0 ? pct_peak(r, d) * (d.clock_khz / 1e3) / r.sm_clock_mhz : 0.0;
}

void print_rows(const std::vector<Measurement>& rows, const DeviceInfo& d) {
  std::printf("%-26s %-5s %-11s %-6s %8s %10s %9s %9s %8s %6s %9s %5s %7s %9s %8s %5s %7s %4s\n",
              "variant", "prec", "access", "check", "err/tol", "median_ms", "min_ms", "max_ms",
              "TFLOP/s", "%peak", "x_cuBLAS", "regs", "smem_B", "occupancy", "k_splits", "MHz",
              "%pk@MHz", "W");
  const auto pct = [](double x) {
    char text[16] = "-";
    if (x > 0) std::snprintf(text, sizeof text, "%.1f%%", x);
    return std::string(text);
  };
  for (const Measurement& r : rows) {
    const double ref = cublas_ms(rows, r);
    char ratio[16] = "-", regs[16] = "-", smem[16] = "-", occ[16] = "-", splits[16] = "-";
    char mhz[16] = "-", watts[16] = "-";
    if (ref > 0) std::snprintf(ratio, sizeof ratio, "%.3f", ref / r.time.median_ms);
    if (!r.is_cublas) {
      std::snprintf(regs, sizeof regs, "%d", r.res.registers);
      std::snprintf(smem, sizeof smem, "%zu", r.res.static_smem + r.res.dynamic_smem);
      std::snprintf(occ, sizeof occ, "%.0f%%", 100.0 * r.res.occupancy);
      std::snprintf(splits, sizeof splits, "%d", r.k_splits);
    }
    if (r.sm_clock_mhz > 0) std::snprintf(mhz, sizeof mhz, "%.0f", r.sm_clock_mhz);
    if (r.power_w >= 0) std::snprintf(watts, sizeof watts, "%.0f", r.power_w);
    std::printf(
        "%-26s %-5s %-11s %-6s %8.3g %10.4f %9.4f %9.4f %8.2f %6s %9s %5s %7s %9s %8s %5s %7s "
        "%4s\n",
        r.variant.c_str(), to_string(r.precision).c_str(),
        r.access.empty() ? "-" : r.access.c_str(), r.checked ? (r.cmp.pass ? "PASS" : "FAIL") : "-",
        r.cmp.worst_ratio, r.time.median_ms, r.time.min_ms, r.time.max_ms, r.tflops(),
        pct(pct_peak(r, d)).c_str(), ratio, regs, smem, occ, splits, mhz,
        pct(pct_peak_at_clock(r, d)).c_str(), watts);
  }
  std::vector<std::string> said;
  for (const Measurement& r : rows)
    if (!r.note.empty() && std::find(said.begin(), said.end(), r.note) == said.end()) {
      std::printf("note (%s): %s\n", r.variant.c_str(), r.note.c_str());
      said.push_back(r.note);
    }
}

// --params: every variant's template arguments as one line of JSON, without touching the GPU
// (scripts/figures.py draws the chapter's figure from the defaults').
void print_params(const std::string& chapter, const std::vector<Variant>& variants) {
  std::string out = "{\"chapter\": " + json_string(chapter) + ", \"variants\": [";
  for (std::size_t i = 0; i < variants.size(); ++i) {
    const Variant& v = variants[i];
    out += std::string(i ? ", " : "") + "{\"name\": " + json_string(v.name) +
           ", \"precision\": " + json_string(to_string(v.precision)) +
           ", \"default\": " + (is_default(variants, i) ? "true" : "false") +
           ", \"threads\": " + std::to_string(v.kernel.threads) +
           ", \"dynamic_smem\": " + std::to_string(v.kernel.dynamic_smem) + ", \"params\": {";
    for (std::size_t j = 0; j < v.params.size(); ++j)
      out +=
          std::string(j ? ", " : "") + json_string(v.params[j].first) + ": " + v.params[j].second;
    out += "}}";
  }
  std::printf("%s]}\n", out.c_str());
}

int run(int argc, char** argv, const std::string& chapter, const std::vector<Variant>& variants) {
  const std::string prog = program_name(argc > 0 ? argv[0] : nullptr);
  Options o;
  if (!parse_or_explain(argc, argv, prog, o)) return 2;
  std::string names;
  for (const Variant& v : variants)
    names += (names.empty() ? "" : ", ") + v.name;
  if (o.params) {
    print_params(chapter, variants);
    return 0;
  }
  if (o.help) {
    std::string defaults;
    for (std::size_t i = 0; i < variants.size(); ++i)
      if (is_default(variants, i)) defaults += (defaults.empty() ? "" : ", ") + variants[i].name;
    std::cout << usage(prog) << "\n  variants: " << names << " (default " << defaults << ")\n";
    return 0;
  }
  std::vector<const Variant*> selected;
  for (std::size_t i = 0; i < variants.size(); ++i)
    if (o.variant == "all" || variants[i].name == o.variant ||
        (o.variant.empty() && is_default(variants, i)))
      selected.push_back(&variants[i]);
  if (selected.empty()) {
    std::cerr << prog << ": unknown variant '" << o.variant << "'; this chapter has: " << names
              << ", all\n"
              << usage(prog) << "\n";
    return 2;
  }
  const std::vector<Shape> shapes = shapes_of(o);
  if (const auto code = refuse_shapes(prog, shapes)) return *code;

  const DeviceInfo dev = query_device();
  bool fp16 = false;
  for (const Variant* v : selected)
    fp16 |= sixteen_bit(v->precision);
  if (!fits(prog, shapes, fp16, o.check, dev)) return 1;
  std::cout << describe(dev) << "\n";

  StreamGuard guard;
  CUBLAS_CHECK(cublasSetStream(cublas_handle(), guard.stream));
  bool ok = true;
  for (const Shape& s : shapes) {
    std::printf(
        "%s: M=%d N=%d K=%d alpha=%g beta=%g seed=%llu%s | median of %d reps after %d "
        "warm-ups, L2 flushed before each\n",
        chapter.c_str(), s.m, s.n, s.k, o.alpha, o.beta, static_cast<unsigned long long>(o.seed),
        o.offset ? (" offset=" + std::to_string(o.offset)).c_str() : "", o.reps, o.warmup);
    std::fflush(stdout);
    Problem prob(s.m, s.n, s.k, o.seed, fp16, o.offset);
    std::vector<Measurement> rows;
    for (const Variant* v : selected) {
      try {
        rows.push_back(measure_kernel(chapter, *v, prob, o, guard.stream));
      } catch (const Rejected& e) {
        std::cerr << prog << " (" << v->name << "): " << e.what() << "\n";
        return 2;
      }
    }
    if (o.cublas)
      for (const Precision p :
           {Precision::FP32, Precision::TF32, Precision::FP16, Precision::BF16})
        if (std::any_of(selected.begin(), selected.end(),
                        [&](const Variant* v) { return v->precision == p; }))
          rows.push_back(measure_cublas(p, prob, o, guard.stream));
    std::printf(
        "reference: %s FP64; |got - ref| <= atol + rtol*|ref|, rtol = 16*(u_in + "
        "2^-24*sqrt(K)), atol = rtol*rms(ref)\n",
        prob.used_cpu_reference() ? "CPU" : "cuBLAS DGEMM");
    print_rows(rows, dev);
    if (!o.dump.empty())
      std::printf(
          "dumped each kernel's inputs, C and reference to %s (check: python3 "
          "scripts/check_npy.py %s)\n",
          o.dump.c_str(), o.dump.c_str());
    ok &= report_failures(rows, dev);
    if (!o.csv.empty()) append_csv(o.csv, rows, dev, command_line(argc, argv));
  }
  return ok ? 0 : 1;
}

}  // namespace

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

// Parses the flags; on a malformed one prints the sentence and the usage line, returns false.
bool parse_or_explain(int argc, char** argv, const std::string& prog, Options& o) {
  try {
    o = parse_options(argc, argv);
    return true;
  } catch (const UsageError& e) {
    std::cerr << prog << ": " << e.what() << "\n" << usage(prog) << "\n";
    return false;
  }
}

// cuBLAS's median time for the same precision and shape, 0 if it was not measured.
double cublas_ms(const std::vector<Measurement>& rows, const Measurement& r) {
  const auto same = [&](const Measurement& c) {
    return c.is_cublas && c.precision == r.precision && c.M == r.M && c.N == r.N && c.K == r.K;
  };
  const Measurement* first = rows.data();
  const Measurement* end = first + rows.size();
  if (&r >= first && &r < end)  // a row of `rows`: the nearest cuBLAS row up to it
    for (const Measurement* c = &r + 1; c-- != first;)
      if (same(*c)) return c->time.median_ms;
  for (const Measurement& c : rows)
    if (same(c)) return c.time.median_ms;
  return 0.0;
}

void append_csv(const std::string& path, const std::vector<Measurement>& rows, const DeviceInfo& d,
                const std::string& cmd) {
  std::ifstream probe(path);
  const bool fresh = !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
  probe.close();
  std::ofstream out(path, std::ios::app);
  if (!out) throw std::runtime_error("cannot write the CSV file '" + path + "'");
  if (fresh)
    out << "chapter,variant,precision,M,N,K,alpha,beta,check,max_abs_err,max_rel_err,err_over_tol,"
           "median_ms,min_ms,max_ms,reps,tflops,cublas_ms,ratio_to_cublas,registers,smem_bytes,"
           "blocks_per_sm,occupancy,gpu,cc,sms,clock_mhz,fp32_peak_tflops,driver,runtime,cublas,"
           "date,table,bytes,gb_per_s,access,offset,k_splits,sm_clock_mhz,sm_clock_min_mhz,"
           "power_w,power_readings,peak_tflops,pct_peak,pct_peak_at_clock,host_us,note,command\n";
  for (const Measurement& r : rows) {
    const double ref = cublas_ms(rows, r);
    char line[1024];
    std::snprintf(
        line, sizeof line,
        "%s,%s,%s,%d,%d,%d,%g,%g,%s,%.6g,%.6g,%.4g,%.6f,%.6f,%.6f,%d,%.4f,%.6f,%.4f,%d,%zu,%d,"
        "%.3f,%s,%d.%d,%d,%.0f,%.2f,%s,%s,%d.%d.%d,%s,%s,%.0f,%.1f,%s,%d,%d,%.0f,%.0f,%.0f,%d,"
        "%.2f,%.2f,%.2f,%.2f,",
        r.is_cublas ? "cublas" : r.chapter.c_str(), r.variant.c_str(),
        to_string(r.precision).c_str(), r.M, r.N, r.K, r.alpha, r.beta,
        r.checked ? (r.cmp.pass ? "PASS" : "FAIL") : "skipped", r.cmp.max_abs, r.cmp.max_rel,
        r.cmp.worst_ratio, r.time.median_ms, r.time.min_ms, r.time.max_ms, r.time.reps, r.tflops(),
        ref, ref > 0 ? ref / r.time.median_ms : 0.0, r.res.registers,
        r.res.static_smem + r.res.dynamic_smem, r.res.blocks_per_sm, r.res.occupancy,
        d.name.c_str(), d.major, d.minor, d.sms, d.clock_khz / 1e3, d.fp32_peak_flops / 1e12,
        version_string(d.driver_version).c_str(), version_string(d.runtime_version).c_str(),
        d.cublas_version / 10000, (d.cublas_version / 100) % 100, d.cublas_version % 100,
        now_utc().c_str(), r.table.c_str(), r.bytes, r.gb_per_s(), r.access.c_str(), r.offset,
        r.k_splits, r.sm_clock_mhz, r.sm_clock_min_mhz, r.power_w, r.power_readings,
        peak_flops(d, r.precision) / 1e12, pct_peak(r, d), pct_peak_at_clock(r, d),
        r.time.host_us);
    out << line << '"' << r.note << "\",\"" << cmd << "\"\n";
  }
}

// Failed checks are reported with numpy's layout; a rate above the peak of its precision means
// the timing is broken (e.g. a launch escaped the events' stream). Returns whether all is well.
bool report_failures(const std::vector<Measurement>& rows, const DeviceInfo& d) {
  bool ok = true;
  for (const Measurement& r : rows) {
    if (r.checked && !r.cmp.pass) {
      std::cerr << r.chapter << " " << r.variant << " " << r.M << "x" << r.N << "x" << r.K
                << ": FAIL against the FP64 reference\n"
                << report(r.cmp, r.N) << "\n";
      ok = false;
    }
    const double pct = pct_peak(r, d);
    if (pct > 105.0) {
      std::cerr << r.chapter << " " << r.variant << ": measured " << pct << "% of the "
                << to_string(r.precision) << " peak, which is impossible: the timing is broken.\n";
      ok = false;
    }
  }
  return ok;
}

// The shapes of a run: --sizes, or the single M, N, K.
std::vector<Shape> shapes_of(const Options& o) {
  std::vector<Shape> s;
  for (const int n : o.sizes)
    s.push_back({n, n, n});
  if (s.empty()) s.push_back({o.m, o.n, o.k});
  return s;
}

// The exit code for shapes there is nothing to run for (0: nothing to do, 2: too large for
// 32-bit indexing), after one sentence; nothing when every shape can run.
std::optional<int> refuse_shapes(const std::string& prog, const std::vector<Shape>& shapes) {
  for (const Shape& s : shapes) {
    if (s.m == 0 || s.n == 0 || s.k == 0) {
      std::cout << prog << ": nothing to do: M=" << s.m << " N=" << s.n << " K=" << s.k
                << (s.k == 0 && s.m && s.n ? " (K=0 only scales C by beta)" : "")
                << "; no GEMM to check or time.\n";
      return 0;
    }
    const long long mk = 1LL * s.m * s.k, kn = 1LL * s.k * s.n, mn = 1LL * s.m * s.n;
    if (mk > INT_MAX || kn > INT_MAX || mn > INT_MAX) {
      std::cerr << prog << ": M=" << s.m << " N=" << s.n << " K=" << s.k
                << " gives a matrix of more than 2^31-1 elements, which the kernels' 32-bit "
                   "indexing cannot address.\n";
      return 2;
    }
  }
  return std::nullopt;
}

// Says so and returns false when the largest problem does not fit in the GPU's free memory.
bool fits(const std::string& prog, const std::vector<Shape>& shapes, bool fp16, bool check,
          const DeviceInfo& dev) {
  for (const Shape& s : shapes) {
    const std::size_t need = problem_bytes(s.m, s.n, s.k, fp16, check) + 2 * size_t(dev.l2_bytes);
    if (need > dev.free_mem) {
      char text[256];
      std::snprintf(text, sizeof text,
                    "%s: M=%d N=%d K=%d needs %.1f GiB of GPU memory; %s has %.1f GiB free.\n",
                    prog.c_str(), s.m, s.n, s.k, need / 1073741824.0, dev.name.c_str(),
                    dev.free_mem / 1073741824.0);
      std::cerr << text;
      return false;
    }
  }
  return true;
}

bool is_default(const std::vector<Variant>& variants, std::size_t i) {
  for (std::size_t j = 0; j < i; ++j)
    if (variants[j].precision == variants[i].precision) return false;
  return i < variants.size();
}

Measurement measure_kernel(const std::string& chapter, const Variant& v, Problem& prob,
                           const Options& o, cudaStream_t stream) {
  Measurement m = base(chapter, v.name, v.precision, prob, o);
  LaunchInfo info;
  check_and_time(
      m, prob, o, stream, [&] { return v.launch(prob, o.alpha, o.beta, stream, &info); }, info.why);
  m.access = info.access;
  m.k_splits = info.k_splits;
  m.note = info.note;
  // After a launch: the launcher may raise the smem limit.
  m.res = kernel_resources(info.kernel ? KernelInfo{info.kernel, info.kernel_threads, info.kernel_smem}
                           : m.access == "element" ? v.narrow
                                                   : v.kernel);
  return m;
}

Measurement measure_cublas(Precision p, Problem& prob, const Options& o, cudaStream_t stream) {
  Measurement m = base("cublas", "cublas_" + to_string(p), p, prob, o);
  m.is_cublas = true;
  check_and_time(
      m, prob, o, stream,
      [&] {
        cublas_gemm(cublas_handle(), p, prob, o.alpha, o.beta);
        return cudaGetLastError();
      },
      "");
  return m;
}

int run_chapter(int argc, char** argv, const std::string& chapter,
                const std::vector<Variant>& variants) {
  return guarded(chapter, [&] { return run(argc, argv, chapter, variants); });
}

}  // namespace gemm
