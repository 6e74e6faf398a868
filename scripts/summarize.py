#!/usr/bin/env python3
"""Every measured number in the READMEs, generated from a results folder (standard library only).

  summarize.py FILE.csv         one table: every kernel row of a CSV with ms, TFLOP/s, x cuBLAS
  summarize.py --write DIR      regenerate from DIR (bench.csv, machine.csv, ncu_4096.csv):
                                for the reference folder (results/nvidia-h200) results/README.md
                                and the generated sections of README.md and NN_*/README.md; for
                                any other GPU's folder DIR/README.md
  summarize.py --check          exit 1, with a diff, when a committed file differs from what
                                --write would make of the committed reference folder
  summarize.py --ncu-targets [SIZE]   the kernels the READMEs' profiler tables at SIZE (4096)
                                need, one per line
  summarize.py --one-default-per-precision DIR   PRECISION:CHAPTER:VARIANT, one per precision
  summarize.py --driver-runs    CHAPTER SIZE FILE for each `variants ... csv=FILE` section: the
                                chapter driver's --variant all run scripts/bench.sh makes

A generated section of a README sits between
    <!-- generated: KIND key=value ... -->   and   <!-- end generated -->
and is rewritten whole. KIND is one of (CHAPTER is the README's own folder unless named):
    chapters                      README.md's chapter table at 4096
    cublas                        one line: cuBLAS in each precision at 4096, the machine
    standing [chapter=NN_x]       the newest chapter's FP16 and BF16 defaults at every size and
                                  shape against cuBLAS, the clocks, 4095^3 against 4096^3
    sizes [sizes=2048,4096,8192]  CHAPTER's default kernels by size, against cuBLAS and the
                                  chapter before
    variants [sizes=4096] [csv=F]  every variant of CHAPTER (from F in the results folder: a
                                  chapter driver's --variant all --csv run, not bench.csv)
    access [sizes=4096,4095]      CHAPTER's defaults on the 16-byte path and element by element
    shapes [chapters=a,b,..] [precision=fp16]  the 16-bit defaults at the plan's other shapes:
                                  CHAPTER's (FP16 and BF16), or those chapters' in one precision
    kernels rows=CH:VAR,.. [size=4096]    chosen kernels side by side
    ncu kernels=CH[:VAR],.. metrics=NAME,.. [size=4096]  Nsight Compute metrics (METRICS below),
                                  one column per kernel, ratios computed here (ncu_SIZE.csv)
    post000 | post002             a blog post's table beside ours (bench/posts.json)
Chapters, their order and their precisions come from the CSV, never from a list here.
"""
import csv
import difflib
import glob
import json
import math
import os
import re
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = os.path.join("results", "nvidia-h200")  # the GPU the chapter READMEs quote
NCU_SIZE = 4096
# The precisions, in the order tables list them; BF16 rows appear where a run has them.
PRECISIONS = ("fp32", "tf32", "fp16", "bf16")


def same_width(precision):
    """What a row of `precision` compares with, in order: its own precision, then for BF16 FP16
    (the same input width: 11's BF16 against 10's FP16)."""
    return [precision] + (["fp16"] if precision == "bf16" else [])
CUBLAS_NAMES = {"fp32": "cuBLAS FP32", "tf32": "cuBLAS TF32", "fp16": "cuBLAS FP16 in, FP32 out",
                "bf16": "cuBLAS BF16 in, FP32 out"}
MARK = re.compile(r"(<!-- generated: ([a-z0-9]+)([^>]*?) -->\n)(.*?)(<!-- end generated -->)", re.S)


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def f(r, key):
    return float(r[key])


# ---------------------------------------------------------------------------------------------
# The benchmark CSV
class Run:
    def __init__(self, d, name="bench.csv"):
        self.dir = d
        self.rows = load(os.path.join(d, name))
        kernels = [r for r in self.rows if r["chapter"] not in ("cublas", "ceiling")]
        # The "shapes" table (skinny and rectangular problems) and the "beta" table (C read and
        # written) apart: the others are squares with beta 0.
        self.gemm = [r for r in kernels if r["table"] not in ("shapes", "beta")]
        self.shaped = [r for r in kernels if r["table"] == "shapes"]
        self.beta = [r for r in kernels if r["table"] == "beta"]
        self.chapters = sorted({r["chapter"] for r in self.gemm})
        self.ncu = Ncu(os.path.join(d, f"ncu_{NCU_SIZE}.csv"))

    def defaults(self, chapter, size):
        """The chapter's default kernels at `size`, one per precision, in CSV order."""
        return [r for r in self.gemm if r["chapter"] == chapter and r["table"] == "sizes"
                and int(r["M"]) == size]

    def default(self, chapter, size, precision=None):
        """The chapter's default of `precision` at `size`; without one, of the same width
        (same_width), else its first."""
        rows = self.defaults(chapter, size)
        for p in same_width(precision):
            same = [r for r in rows if p in (None, r["precision"])]
            if same:
                return same[0]
        return rows[0] if rows else None

    def variant(self, chapter, variant, size):
        for r in self.gemm:
            if r["chapter"] == chapter and r["variant"] == variant and int(r["M"]) == size:
                return r
        return None

    def cublas(self, size, precision):
        for r in self.rows:
            if r["chapter"] == "cublas" and r["precision"] == precision and \
                    (r["M"], r["N"], r["K"]) == (str(size),) * 3:
                return r
        return None

    def cublas_of(self, row):
        """The cuBLAS row a row was compared with: the nearest one before it of the same problem
        and precision (gemm_bench times cuBLAS right before each kernel), else the first."""
        i = self.rows.index(row) if row in self.rows else -1
        for r in reversed(self.rows[:i + 1]):
            if r["chapter"] == "cublas" and r["precision"] == row["precision"] and \
                    (r["M"], r["N"], r["K"]) == (row["M"], row["N"], row["K"]):
                return r
        return self.cublas(int(row["M"]), row["precision"])

    def previous(self, chapter):
        i = self.chapters.index(chapter)
        return self.chapters[i - 1] if i > 0 else None

    def precisions(self, chapter):
        return [r["precision"] for r in self.defaults(chapter, NCU_SIZE)] or ["fp32"]

    def sizes(self):
        return sorted({int(r["M"]) for r in self.gemm if r["table"] == "sizes"})

    def ceiling(self):
        return next((r for r in self.rows if r["chapter"] == "ceiling"), None)

    def cublas_precisions(self):
        """The precisions of the cuBLAS rows tables list: FP32, TF32, FP16 always (a missing one
        shows as empty cells), BF16 where the run has it."""
        return [p for p in PRECISIONS if p != "bf16" or
                any(r["chapter"] == "cublas" and r["precision"] == p for r in self.rows)]


def copy_tb_s(r):
    """The copy ceiling in TB/s: its own column, or (older CSVs) the tflops column of M=1,N=2."""
    if r.get("gb_per_s"):
        return f(r, "gb_per_s") / 1e3
    return f(r, "tflops")


def label(run, r):
    """A kernel's name in tables: the chapter, and its precision where it has several."""
    many = len(run.precisions(r["chapter"])) > 1
    return r["chapter"] + (f" ({r['precision'].upper()})" if many else "")


# ---------------------------------------------------------------------------------------------
# Nsight Compute: raw metric rows (chapter, variant, kernel, metric, value) from profile.sh
class Ncu:
    def __init__(self, path):
        self.kernels = {}
        if os.path.exists(path):
            with open(path, newline="") as fh:
                for chapter, variant, _kernel, name, value in csv.reader(fh):
                    self.kernels.setdefault((chapter, variant), {})[name] = value

    def get(self, key):
        return self.kernels.get(key)


def stall(name):
    return f"smsp__average_warps_issue_stalled_{name}_per_issue_active.ratio"


STALLS = ["long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle", "barrier",
          "math_pipe_throttle", "not_selected", "wait", "dispatch_stall", "no_instruction",
          "branch_resolving", "drain", "membar", "tex_throttle", "imc_miss", "sleeping"]


def raw(m, name):
    try:
        return float(m[name])
    except (KeyError, ValueError):
        return math.nan


def ratio(a, b):
    return a / b if b and not math.isnan(b) else math.nan


def count(x):
    if math.isnan(x):
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x:.3g}"


def fixed(digits, suffix=""):
    return lambda x: "-" if math.isnan(x) else f"{x:.{digits}f}{suffix}"


def per_hmma(inst, hmma):
    """Instructions per HMMA; nan (shown "-") for a kernel whose HMMAs are under 1% of its
    instructions (cuBLAS's FP32 kernel, the FP32 chapters), where the ratio means nothing."""
    return ratio(inst, hmma) if hmma >= 0.01 * inst else float("nan")


def top_stalls(m):
    vals = sorted(((v, s) for s in STALLS for v in [raw(m, stall(s))] if not math.isnan(v)),
                  reverse=True)
    return ", ".join(f"{s} {v:.2f}" for v, s in vals[:2] if not math.isnan(v)) or "-"


# name: (label, value from the raw metrics, format). Counts are per kernel launch at 4096^3.
METRICS = {
    "time": ("kernel time under ncu (ms)", lambda m: raw(m, "gpu__time_duration.sum") / 1e6,
             fixed(3)),
    "clock": ("SM clock during the profile (MHz)",
              lambda m: raw(m, "sm__cycles_elapsed.avg.per_second") / 1e6, fixed(0)),
    "registers": ("registers per thread", lambda m: raw(m, "launch__registers_per_thread"),
                  fixed(0)),
    "occupancy": ("achieved occupancy (warps / 64)",
                  lambda m: raw(m, "sm__warps_active.avg.pct_of_peak_sustained_active"),
                  fixed(1, "%")),
    "inst": ("warp instructions executed", lambda m: raw(m, "smsp__inst_executed.sum"), count),
    "fma_inst": ("FMA-pipe warp instructions", lambda m: raw(m, "smsp__inst_executed_pipe_fma.sum"),
                 count),
    "fma_share": ("FMA-pipe share of instructions",
                  lambda m: 100 * ratio(raw(m, "smsp__inst_executed_pipe_fma.sum"),
                                        raw(m, "smsp__inst_executed.sum")), fixed(1, "%")),
    "issue": ("issue slots used", lambda m: raw(m, "smsp__issue_active.avg.pct_of_peak_sustained_active"),
              fixed(1, "%")),
    "fma_pipe": ("FMA pipe busy", lambda m: raw(m, "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
                 fixed(1, "%")),
    "lsu_pipe": ("LSU pipe busy", lambda m: raw(m, "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
                 fixed(1, "%")),
    "gld_requests": ("global load requests",
                     lambda m: raw(m, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), count),
    "gld_sectors": ("global load sectors", lambda m: raw(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                    count),
    "gld_per_req": ("global load sectors per request",
                    lambda m: ratio(raw(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
                                    raw(m, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")), fixed(2)),
    "gst_per_req": ("global store sectors per request",
                    lambda m: ratio(raw(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                                    raw(m, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")), fixed(2)),
    "gst_sectors": ("global store sectors", lambda m: raw(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
                    count),
    "dram_gb": ("DRAM bytes read + written (GB)",
                lambda m: (raw(m, "dram__bytes_read.sum") + raw(m, "dram__bytes_write.sum")) / 1e9,
                fixed(2)),
    "dram_tbs": ("DRAM throughput (TB/s)",
                 lambda m: ratio(raw(m, "dram__bytes_read.sum") + raw(m, "dram__bytes_write.sum"),
                                 raw(m, "gpu__time_duration.sum")) / 1e3, fixed(2)),
    "l2_gb": ("L2 traffic (GB)", lambda m: raw(m, "lts__t_bytes.sum") / 1e9, fixed(2)),
    "l2_tbs": ("L2 throughput (TB/s)",
               lambda m: ratio(raw(m, "lts__t_bytes.sum"), raw(m, "gpu__time_duration.sum")) / 1e3,
               fixed(2)),
    "lds": ("shared-load instructions", lambda m: raw(m, "smsp__inst_executed_op_shared_ld.sum"), count),
    "sts": ("shared-store instructions", lambda m: raw(m, "smsp__inst_executed_op_shared_st.sum"), count),
    "lds_per_fma": ("shared loads per FMA-pipe instruction",
                    lambda m: ratio(raw(m, "smsp__inst_executed_op_shared_ld.sum"),
                                    raw(m, "smsp__inst_executed_pipe_fma.sum")), fixed(3)),
    "lds_wavefronts": ("shared-load wavefronts",
                       lambda m: raw(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), count),
    "sts_wavefronts": ("shared-store wavefronts",
                       lambda m: raw(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), count),
    "lds_wpi": ("wavefronts per shared load",
                lambda m: ratio(raw(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
                                raw(m, "smsp__inst_executed_op_shared_ld.sum")), fixed(2)),
    "sts_wpi": ("wavefronts per shared store",
                lambda m: ratio(raw(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
                                raw(m, "smsp__inst_executed_op_shared_st.sum")), fixed(2)),
    "lds_conflicts": ("shared-load bank conflicts",
                      lambda m: raw(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"), count),
    "sts_conflicts": ("shared-store bank conflicts",
                      lambda m: raw(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"), count),
    "local": ("local-memory (spill) load + store requests",
              lambda m: raw(m, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum")
              + raw(m, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"), count),
    "tensor_pipe": ("tensor (HMMA) pipe busy",
                    lambda m: raw(m, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"),
                    fixed(1, "%")),
    "hmma_inst": ("tensor-pipe (HMMA) instructions",
                  lambda m: raw(m, "sm__inst_executed_pipe_tensor_op_hmma.sum"), count),
    "inst_per_hmma": ("warp instructions per HMMA (- where HMMAs are not the work)",
                      lambda m: per_hmma(raw(m, "smsp__inst_executed.sum"),
                                         raw(m, "sm__inst_executed_pipe_tensor_op_hmma.sum")),
                      fixed(2)),
    "ldsm": ("ldmatrix instructions", lambda m: raw(m, "smsp__inst_executed_op_ldsm.sum"), count),
    "smem_wavefronts": ("shared-memory wavefronts (every access)",
                        lambda m: raw(m, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), count),
    "smem_conflicts": ("shared-memory bank conflicts (every access)",
                       lambda m: raw(m, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"), count),
    "sol_sm": ("SM throughput (% of peak)", lambda m: raw(m, "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
               fixed(1, "%")),
    "sol_l1": ("L1/shared throughput (% of peak)",
               lambda m: raw(m, "l1tex__throughput.avg.pct_of_peak_sustained_active"), fixed(1, "%")),
    "sol_l2": ("L2 throughput (% of peak)", lambda m: raw(m, "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
               fixed(1, "%")),
    "sol_dram": ("DRAM throughput (% of peak)",
                 lambda m: raw(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed"), fixed(1, "%")),
    "top_stalls": ("top two stall reasons (warps per issue)", None, None),
}
for _s in STALLS:
    METRICS["stall_" + _s] = (f"`{_s}` stalls (warps per issue)",
                              (lambda s: lambda m: raw(m, stall(s)))(_s), fixed(2))


def ncu_key(spec):
    chapter, _, variant = spec.partition(":")
    return chapter, variant or "default"


# ---------------------------------------------------------------------------------------------
# The generated sections
def table(head, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(head) - 1)
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def x(a, b):
    return f"{a / b:.2f}x" if a and b else ""


def cublas_ratio(run, r):
    c = run.cublas_of(r)
    return f"{f(c, 'median_ms') / f(r, 'median_ms'):.3f}" if c else "-"


def pct_peak(r):
    """% of the dense peak of the row's precision at the maximum SM clock."""
    return f"{f(r, 'pct_peak'):.1f}%" if float(r.get("pct_peak") or 0) > 0 else "-"


def at_clock(r):
    """% of that peak at the SM clock measured after the row's timed launches, and the clock."""
    if float(r.get("pct_peak_at_clock") or 0) <= 0:
        return "-"
    return f"{f(r, 'pct_peak_at_clock'):.1f}% at {f(r, 'sm_clock_mhz'):.0f} MHz"


def gen_sizes(run, chapter, args):
    sizes = [int(s) for s in args.get("sizes", "2048,4096,8192").split(",")]
    prev = run.previous(chapter)
    rows = []
    for n in sizes:
        for r in run.defaults(chapter, n):
            p = run.default(prev, n, r["precision"]) if prev else None
            rows.append([n, r["precision"].upper(), f"{f(r, 'median_ms'):.3f}", f"{f(r, 'tflops'):.2f}",
                         pct_peak(r), at_clock(r), cublas_ratio(run, r),
                         x(f(p, "median_ms"), f(r, "median_ms")) if p else "-"])
    head = ["size", "precision", "ms", "TFLOP/s", "% of peak", "% of peak at the clock held",
            "x cuBLAS (same precision)", f"x {prev}" if prev else "x previous"]
    return table(head, rows, ["---:", "---"] + ["---:"] * 6)


def gen_variants(run, chapter, args):
    own = "csv" in args  # a chapter driver's own run (--variant all --csv) beside bench.csv
    if own:
        run = Run(run.dir, args["csv"])
    sizes = [int(s) for s in args.get("sizes", "4096").split(",")]
    prev = None if own else run.previous(chapter)  # that run has no other chapter
    rows = []
    for n in sizes:
        defaults = {r["variant"] for r in run.defaults(chapter, n)}
        if not defaults:  # a driver's run: its first row of each precision is the default
            firsts = {}
            for r in run.gemm:
                if r["chapter"] == chapter and int(r["M"]) == n:
                    firsts.setdefault(r["precision"], r["variant"])
            defaults = set(firsts.values())
        for r in run.gemm:
            if r["chapter"] != chapter or int(r["M"]) != n:
                continue
            p = run.default(prev, n, r["precision"]) if prev else None
            name = r["variant"] + (" (default)" if r["variant"] in defaults else "")
            rows.append([n, name, r["precision"].upper(), f"{f(r, 'median_ms'):.3f}",
                         f"{f(r, 'tflops'):.2f}", cublas_ratio(run, r),
                         x(f(p, "median_ms"), f(r, "median_ms")) if p else "-", r["registers"],
                         r["smem_bytes"], f"{100 * f(r, 'occupancy'):.0f}%"])
    head = ["size", "variant", "precision", "ms", "TFLOP/s", "x cuBLAS",
            f"x {prev}" if prev else "x previous", "registers", "smem B", "occupancy"]
    if own:
        rows = [r[:6] + r[7:] for r in rows]
        head = head[:6] + head[7:]
    return table(head, rows, ["---:", "---", "---"] + ["---:"] * (len(head) - 3))


def shape_name(r):
    return r["M"] + "^3" if r["M"] == r["N"] == r["K"] else f"{r['M']}x{r['N']}x{r['K']}"


def gen_shapes(run, chapter, args):
    """The 16-bit defaults at the plan's skinny and rectangular shapes (M x N x K): this chapter's
    FP16 and BF16 rows (a precision column where it has both) against cuBLAS and the chapter
    before (for BF16 its FP16 row where it has no BF16); with chapters=a,b,.. each one's TFLOP/s
    (x cuBLAS) in precision=P (default fp16)."""
    rows = [r for r in run.shaped if r["precision"] in ("fp16", "bf16")]
    shapes = list(dict.fromkeys((r["M"], r["N"], r["K"]) for r in rows))
    of = {(r["precision"], r["chapter"], r["M"], r["N"], r["K"]): r for r in rows}
    if "chapters" in args:
        prec, chs = args.get("precision", "fp16"), args["chapters"].split(",")
        shapes = [s for s in shapes if any(k[0] == prec and k[2:] == s for k in of)]
        trows = [[shape_name(dict(zip("MNK", s)))] +
                 [f"{f(of[(prec, c) + s], 'tflops'):.1f} ({cublas_ratio(run, of[(prec, c) + s])})"
                  if (prec, c) + s in of else "" for c in chs] +
                 [f"{f(run.cublas_of(of[(prec, chs[-1]) + s]), 'tflops'):.1f}"
                  if (prec, chs[-1]) + s in of else ""]
                 for s in shapes]
        return table(["M x N x K"] + chs + [f"cuBLAS {prec.upper()}"], trows,
                     ["---"] + ["---:"] * (len(chs) + 1))
    prev = run.previous(chapter)
    precs = [p for p in ("fp16", "bf16") if any(k[:2] == (p, chapter) for k in of)]
    many = len(precs) > 1
    trows = []
    for s in shapes:
        for prec in precs:
            r = of.get((prec, chapter) + s)
            if not r:
                continue
            p = next((of[(q, prev) + s] for q in same_width(prec) if (q, prev) + s in of), None)
            trows.append([shape_name(r)] + ([prec.upper()] if many else []) +
                         [f"{f(r, 'median_ms'):.4f}", f"{f(r, 'tflops'):.1f}", at_clock(r),
                          cublas_ratio(run, r),
                          x(f(p, "median_ms"), f(r, "median_ms")) if p else "-"])
    head = ["M x N x K"] + (["precision"] if many else []) + \
        ["ms", "TFLOP/s", "% of peak at the clock held", "x cuBLAS", f"x {prev}"]
    return table(head, trows, ["---"] * (2 if many else 1) + ["---:"] * 5)


def gen_beta(run, chapter, _args):
    """The chapter's FP16 default with beta 0.5 and 1 (bench/plan.h: kBetaShapes, kBetas), against
    cuBLAS with the same beta and the chapter before; nothing where the run has no such rows."""
    prev = run.previous(chapter)
    of = {(r["chapter"], r["M"], r["N"], r["K"], r["beta"]): r for r in run.beta}
    trows = []
    for r in (r for r in run.beta if r["chapter"] == chapter):
        p = of.get((prev, r["M"], r["N"], r["K"], r["beta"]))
        trows.append([shape_name(r), f"{f(r, 'beta'):g}", f"{f(r, 'median_ms'):.4f}",
                      f"{f(r, 'tflops'):.1f}", at_clock(r), cublas_ratio(run, r),
                      x(f(p, "median_ms"), f(r, "median_ms")) if p else "-"])
    if not trows:
        return ""
    head = ["M x N x K", "beta", "ms", "TFLOP/s", "% of peak at the clock held",
            "x cuBLAS (same beta)", f"x {prev}"]
    return table(head, trows, ["---"] + ["---:"] * 6)


def gen_access(run, chapter, args):
    """The chapter's defaults at 4096 (K, N multiples of 4 and 8: the 16-byte path) and 4095 (element
    by element), with the path each took as bench.csv records it."""
    wide_n, narrow_n = (int(s) for s in args.get("sizes", "4096,4095").split(","))
    rows = []
    for r in run.defaults(chapter, wide_n):
        n = run.default(chapter, narrow_n, r["precision"])
        if n is None or n["precision"] != r["precision"]:
            return f"(this run has no {narrow_n}^3 rows)"
        for q in (r, n):
            rows.append([q["M"], q["precision"].upper(), q.get("access") or "-", f"{f(q, 'median_ms'):.3f}",
                         f"{f(q, 'tflops'):.2f}", cublas_ratio(run, q),
                         "1" if q is r else f"{f(n, 'tflops') / f(r, 'tflops'):.3f}"])
    return table(["size", "precision", "global accesses", "ms", "TFLOP/s", "x cuBLAS (same size)",
                  f"fraction of {wide_n}^3's TFLOP/s"], rows, ["---:", "---", "---"] + ["---:"] * 4)


def gen_kernels(run, chapter, args):
    n = int(args.get("size", NCU_SIZE))
    rows = []
    for spec in args["rows"].split(","):
        ch, var = ncu_key(spec)
        r = run.default(ch, n) if var == "default" else run.variant(ch, var, n)
        if r is None:  # a run of other sizes (scripts/bench.sh 1024): say so, don't stop
            rows.append([ch, var, "not in this run"] + [""] * 5)
            continue
        rows.append([ch, r["variant"], f"{f(r, 'median_ms'):.3f}", f"{f(r, 'tflops'):.2f}",
                     cublas_ratio(run, r), r["registers"], r["smem_bytes"],
                     f"{100 * f(r, 'occupancy'):.0f}%"])
    return table(["chapter", "variant", "ms", "TFLOP/s", "x cuBLAS", "registers", "smem B",
                  "occupancy"], rows, ["---", "---"] + ["---:"] * 6)


def gen_ncu(run, chapter, args):
    specs = args["kernels"].split(",")
    size = int(args.get("size", NCU_SIZE))
    ncu = run.ncu if size == NCU_SIZE else Ncu(os.path.join(run.dir, f"ncu_{size}.csv"))
    kernels = []
    for spec in specs:
        # A kernel not profiled yet shows as "-" (scripts/profile.sh profiles what is asked for).
        kernels.append(ncu.get(ncu_key(spec)) or {})
    rows = []
    for name in args["metrics"].split(","):
        if name not in METRICS:
            raise SystemExit(f"summarize.py: unknown metric '{name}' in {chapter}/README.md; "
                             f"known: {', '.join(METRICS)}")
        text, fn, fmt = METRICS[name]
        cells = [top_stalls(m) if name == "top_stalls" else fmt(fn(m)) for m in kernels]
        rows.append([text] + cells)
    head = [f"Nsight Compute, {size}^3"] + [s.replace(":", " ") for s in specs]
    return table(head, rows)


def gen_chapters(run, _chapter, _args):
    rows = []
    for ch in run.chapters:
        name, title = f"[{ch}]({ch})", chapter_title(ch)
        for r in run.defaults(ch, NCU_SIZE):
            prec = r["precision"].upper()
            rows.append([name, title, prec, f"{f(r, 'tflops'):.2f}",
                         f"{cublas_ratio(run, r)} of cuBLAS {prec}"])
            name = title = ""
    return table(["chapter", "what it adds", "precision", f"TFLOP/s at {NCU_SIZE}^3",
                  "x cuBLAS (same precision)"], rows, ["---", "---", "---", "---:", "---:"])


def gen_ladder(run, _chapter, args):
    """Each chapter from `first` on, at each size: its default in `precision` against the chapter
    before it and cuBLAS in the same run, with the SM clock each held: the road, step by step."""
    prec, sizes = args.get("precision", "fp16"), [int(s) for s in args.get("sizes", "2048,4096,8192").split(",")]
    chapters = [c for c in run.chapters if c >= args.get("first", "08")]
    rows = []
    for ch in chapters:
        for n in sizes:
            r = run.default(ch, n, prec)
            if r is None or r["precision"] != prec:
                continue
            c = run.cublas_of(r)
            p = run.default(run.previous(ch), n, prec) if ch != chapters[0] else None
            ok = p is not None and p["precision"] == prec
            rows.append([ch if n == sizes[0] else "", n, f"{f(r, 'tflops'):.1f}",
                         x(f(p, "median_ms"), f(r, "median_ms")) if ok else "-", cublas_ratio(run, r),
                         f"{f(r, 'sm_clock_mhz'):.0f} / {f(c, 'sm_clock_mhz'):.0f}" if c else "-"])
    return table(["chapter", "size", "TFLOP/s", "x the chapter before", "x cuBLAS",
                  "SM clock, MHz (chapter / cuBLAS)"], rows, ["---", "---:", "---:", "---:", "---:", "---:"])


def gen_standing(run, _chapter, args):
    """The newest chapter in the run (or chapter=NN_x): its FP16 and BF16 defaults at every square
    size and every skinny or rectangular shape of the plan (beta 0), each against cuBLAS in the
    same precision timed right before it, with the SM clocks; then its 4095^3 against its 4096^3."""
    ch = args.get("chapter") or max((c for c in run.chapters if any(
        r["chapter"] == c and r["precision"] == "bf16" for r in run.gemm)), default=None)
    if ch is None:
        return "(this run has no chapter with FP16 and BF16 rows)"
    rows = [r for r in run.gemm if r["chapter"] == ch and r["table"] == "sizes"] + \
        [r for r in run.shaped if r["chapter"] == ch]
    of = {(r["precision"], r["M"], r["N"], r["K"]): r for r in rows if r["precision"] in ("fp16", "bf16")}
    shapes = list(dict.fromkeys(k[1:] for k in of))  # the squares by size, then the plan's order
    shapes = sorted((s for s in shapes if len(set(s)) == 1), key=lambda s: int(s[0])) + \
        [s for s in shapes if len(set(s)) > 1]
    trows = []
    for s in shapes:
        cells, clocks = [], []
        for prec in ("fp16", "bf16"):
            r = of.get((prec,) + s)
            c = run.cublas_of(r) if r else None
            cells += [f"{f(r, 'tflops'):.1f}", cublas_ratio(run, r)] if r else ["-", "-"]
            clocks.append(f"{f(r, 'sm_clock_mhz'):.0f} / {f(c, 'sm_clock_mhz'):.0f}" if r and c else "-")
        trows.append([shape_name(dict(zip("MNK", s)))] + cells + clocks)
    text = table(["M x N x K", "FP16 TFLOP/s", "x cuBLAS FP16", "BF16 TFLOP/s", "x cuBLAS BF16",
                  "SM clock, MHz, FP16 (chapter / cuBLAS)", "BF16"], trows,
                 ["---"] + ["---:"] * 6)
    fractions = [f"{prec.upper()} {f(of[(prec,) + ('4095',) * 3], 'tflops') / f(of[(prec,) + ('4096',) * 3], 'tflops'):.3f}"
                 for prec in ("fp16", "bf16") if (prec,) + ("4095",) * 3 in of and (prec,) + ("4096",) * 3 in of]
    return (f"{ch}, the newest chapter in this run ({header(run.rows)}):\n\n" + text +
            (f"\n\n4095^3 as a fraction of its own 4096^3 TFLOP/s: {', '.join(fractions)}." if fractions else ""))


def gen_cublas(run, _chapter, _args):
    r0 = run.rows[0]
    parts = []
    for prec, name in (("fp32", "FP32"), ("tf32", "TF32"), ("fp16", "FP16 in / FP32 out"),
                       ("bf16", "BF16 in / FP32 out")):
        c = run.cublas(NCU_SIZE, prec)
        if c:
            parts.append(f"{name} {f(c, 'tflops'):.1f} TFLOP/s")
    return (f"cuBLAS at {NCU_SIZE}^3 in the same run: {', '.join(parts)}. {header(run.rows)}; "
            f"median of {r0['reps']} launches, L2 flushed before each "
            f"([{REFERENCE}/bench.csv]({REFERENCE}/bench.csv)).")


def posts():
    with open(os.path.join(ROOT, "bench", "posts.json")) as fh:
        return json.load(fh)


def gen_post000(run, _chapter, _args):
    s = posts()["post000"]
    n = s["size"]
    naive = run.default(run.chapters[0], n)
    if naive is None:
        return f"(this run has no {n}^3 rows)"
    rows = []
    for b in s["rows"]:
        r = run.variant(b["chapter"], b["variant"], n) if b["variant"] else run.default(b["chapter"], n)
        if r:
            rows.append([b["label"], f"{1e3 * f(r, 'tflops'):.0f}", pct_peak(r),
                         x(f(naive, "median_ms"), f(r, "median_ms")), b["gflops"], f"{b['pct_peak']}%",
                         f"{b['speedup']}x"])
    return table(["version", "here GFLOP/s", "here % of peak", "here speedup", "blog GFLOP/s",
                  "blog % of peak", "blog speedup"], rows)


def gen_post002(run, _chapter, _args):
    s = posts()["post002"]
    n = s["size"]
    base = run.cublas(n, "fp32")
    if base is None:
        return f"(this run has no {n}^3 rows)"
    rows = []
    for b in s["rows"]:
        r = run.cublas(n, b["cublas"]) if "cublas" in b else run.default(b["chapter"], n)
        if r:
            rows.append([b["label"], f"{f(r, 'median_ms'):.3f}",
                         f"{f(base, 'median_ms') / f(r, 'median_ms'):.3f}", f"{b['ms']:.2f}",
                         f"{s['cublas_ms'] / b['ms']:.3f}"])
    return table(["kernel", "here ms", "here x cuBLAS FP32", "blog ms", "blog x cuBLAS FP32"], rows)


def gen_mmapeak(run, _chapter, args):
    """bench/mma_peak.cu's rows (mma_peak.csv): the mma.sync ceiling, with cuBLAS at 4096 beside
    it. args: warps=W (the rows with W warps per SM; default all)."""
    path = os.path.join(run.dir, "mma_peak.csv")
    if not os.path.exists(path):
        return "(this run has no mma_peak.csv: scripts/bench.sh writes it)"
    rows = load(path)
    if "warps" in args:
        rows = [r for r in rows if r["warps_per_sm"] == args["warps"]]
    out = []
    for r in rows:
        prec = next((p for p in ("tf32", "bf16") if p in r["instruction"]), "fp16")
        c = run.cublas(NCU_SIZE, prec)
        out.append([f"`{r['instruction']}`", r["warps_per_sm"], r["chains"], f"{f(r, 'tflops'):.1f}",
                    r["sm_clock_mhz"],
                    f"{f(r, 'tflops') / f(c, 'tflops'):.3f}" if c else "-"])
    return table(["instruction", "warps per SM", "independent accumulators per warp", "TFLOP/s",
                  "SM clock (MHz)", f"x cuBLAS at {NCU_SIZE}^3 (same precision)"], out)


def gen_wgmmapeak(run, _chapter, args):
    """bench/wgmma_peak.cu's rows (wgmma_peak.csv, Hopper only): the wgmma ceiling, as a fraction of
    the dense peak at the SM clock held. args: warpgroups=W (those rows only; default all)."""
    path = os.path.join(run.dir, "wgmma_peak.csv")
    if not os.path.exists(path):
        return "(this run has no wgmma_peak.csv: scripts/bench.sh writes it on a Hopper GPU)"
    rows = [r for r in load(path) if args.get("warpgroups", r["warpgroups_per_sm"]) == r["warpgroups_per_sm"]]
    return table(["instruction", "warpgroups per SM", "wait_group", "TFLOP/s", "SM clock (MHz)",
                  "% of peak at that clock"],
                 [[f"`{r['instruction']}`", r["warpgroups_per_sm"], r["wait_group"], f"{f(r, 'tflops'):.1f}",
                   r["sm_clock_mhz"], f"{f(r, 'pct_peak_at_clock'):.1f}%"] for r in rows])


GENERATORS = {"ladder": gen_ladder, "mmapeak": gen_mmapeak, "wgmmapeak": gen_wgmmapeak, "sizes": gen_sizes,
              "variants": gen_variants, "shapes": gen_shapes, "beta": gen_beta, "kernels": gen_kernels, "access": gen_access, "ncu": gen_ncu,
              "chapters": gen_chapters, "cublas": gen_cublas, "standing": gen_standing, "post000": gen_post000, "post002": gen_post002}


def chapter_title(chapter):
    path = os.path.join(ROOT, chapter, "README.md")
    if not os.path.exists(path):
        return ""
    first = open(path).readline().strip().lstrip("# ")
    return first.split("·", 1)[-1].strip()


def parse_args(text):
    return dict(kv.split("=", 1) for kv in text.split())


def fill(text, run, chapter):
    """The text with every generated section rewritten."""
    def one(match):
        kind, args = match.group(2), parse_args(match.group(3))
        if kind not in GENERATORS:
            raise SystemExit(f"summarize.py: unknown generated section '{kind}'")
        return match.group(1) + GENERATORS[kind](run, chapter, args).rstrip() + "\n" + match.group(5)
    return MARK.sub(one, text)


def readme_files():
    """The READMEs with generated sections: README.md and each chapter's, with its chapter."""
    files = [("README.md", None)]
    for path in sorted(glob.glob(os.path.join(ROOT, "[0-9][0-9]_*", "README.md"))):
        files.append((os.path.relpath(path, ROOT), os.path.basename(os.path.dirname(path))))
    return files


def ncu_targets(size=NCU_SIZE):
    targets = []
    for rel, chapter in readme_files():
        for m in MARK.finditer(open(os.path.join(ROOT, rel)).read()):
            args = parse_args(m.group(3)) if m.group(2) == "ncu" else {}
            if args and int(args.get("size", NCU_SIZE)) == size:
                for spec in args["kernels"].split(","):
                    spec = ":".join(ncu_key(spec)) if ":" in spec else spec + ":default"
                    if spec not in targets:
                        targets.append(spec)
    return targets


def driver_runs():
    """The chapter drivers' own runs the READMEs' `variants ... csv=F` sections read:
    (chapter, size, F) for scripts/bench.sh to make."""
    runs = []
    for rel, chapter in readme_files():
        for m in MARK.finditer(open(os.path.join(ROOT, rel)).read()):
            args = parse_args(m.group(3)) if m.group(2) == "variants" else {}
            if chapter and "csv" in args:
                run = (chapter, int(args.get("sizes", "4096").split(",")[0]), args["csv"])
                if run not in runs:
                    runs.append(run)
    return runs


# ---------------------------------------------------------------------------------------------
# results/README.md (or DIR/README.md for another GPU)
def header(rows):
    r = rows[0]
    return (f"{r['gpu']} (sm_{r['cc'].replace('.', '')}, {r['sms']} SMs, {r['clock_mhz']} MHz max, "
            f"FP32 peak {f(r, 'fp32_peak_tflops'):.1f} TFLOP/s), driver {r['driver']}, "
            f"CUDA {r['runtime']}, cuBLAS {r['cublas']}, {r['date'][:10]}")


def compare(old, new):
    """How far the median times of two runs of the command are apart, kernel by kernel."""
    size = lambda r: r["M"] if r["M"] == r["N"] == r["K"] else f"{r['M']}x{r['N']}x{r['K']}"
    key = lambda r: (r["chapter"], r["variant"], size(r), r["table"], r.get("beta", "0"))
    before = {key(r): r for r in old}
    devs = sorted(((f(r, "median_ms") / f(before[key(r)], "median_ms") - 1.0, key(r))
                   for r in new if key(r) in before and r["chapter"] != "ceiling"),
                  key=lambda d: -abs(d[0]))
    if not devs:
        return "The previous run in this folder has no rows in common with this one."
    big = [d for d in devs if max(int(v) for v in d[1][2].split("x")) >= 1024] or devs
    text = (f"Against the previous run kept beside it (`previous_bench.csv`, {old[0]['date']}), "
            f"over {len(devs)} common rows the median time moved by "
            f"{100 * statistics.median(abs(d) for d, _ in devs):.2f}% (median of |change|), "
            f"{100 * statistics.median(abs(d) for d, _ in big):.2f}% at sizes of 1024 and up. "
            f"The largest changes:")
    rows = [[k[0], k[1], k[2], f"{100 * d:+.2f}%"] for d, k in devs[:5]]
    return text + "\n\n" + table(["kernel", "variant", "size", "change of median time"], rows,
                                 ["---", "---", "---:", "---:"])


def clock_lines(run):
    """The clock and power the rows ran at, by precision (bench.csv's sm_clock_mhz, power_w)."""
    lines = []
    for prec in PRECISIONS:
        rows = [r for r in run.rows if r["precision"] == prec and float(r.get("sm_clock_mhz") or -1) > 0]
        if not rows:
            continue
        mhz = [f(r, "sm_clock_mhz") for r in rows]
        watts = [f(r, "power_w") for r in rows if float(r.get("power_w") or -1) >= 0]
        lines.append(f"- {prec.upper()} rows ({len(rows)}): SM clock after the timed launches "
                     f"{min(mhz):.0f} to {max(mhz):.0f} MHz (median {statistics.median(mhz):.0f})"
                     + (f"; board power while they ran {min(watts):.0f} to {max(watts):.0f} W"
                        if watts else "") + ".")
    if lines:
        lines = ["The clock each row held (a probe kernel after each timed launch counts SM cycles "
                 "against the GPU's timer) and the board power (NVML, refreshed about every "
                 "100 ms):", ""] + lines
    return lines


def results_readme(run, rel):
    rows = run.rows
    # Where the page is written: results/README.md for the reference GPU, else beside its data.
    here = os.path.join(ROOT, "results") if rel == REFERENCE else os.path.join(ROOT, rel)
    out = ["# Results", "",
           f"Generated by `scripts/bench.sh` (`python3 scripts/summarize.py --write {rel}`) from the",
           "files in that folder; do not edit by hand. Every CSV row carries the command and the date",
           "it came from; `bench.log` is the run's output.", "",
           "Machine: " + header(rows) + ".", ""]
    mpath = os.path.join(run.dir, "machine.csv")
    if os.path.exists(mpath):
        m = load(mpath)
        keys = [k for k in m[0] if k != "when"]
        out += ["SM clock and power around the run (nvidia-smi):", "",
                table(["when"] + keys, [[r["when"]] + [r[k] for k in keys] for r in m],
                      ["---"] * (len(keys) + 1))]
        out += [""] + clock_lines(run) + [""]

    n = NCU_SIZE
    out += [f"## Every chapter at {n}^3", "",
            "Each chapter's default kernel(s) against cuBLAS in the same precision, all from the same "
            "process; median of the timed launches, L2 flushed before each.", ""]
    trows, prev = [], {}
    for ch in run.chapters:
        for r in run.defaults(ch, n):
            # A chapter's first row of a precision against the chapter before in the nearest one:
            # of the same width (same_width), else FP32.
            p = next((prev[q] for q in same_width(r["precision"]) + ["fp32"] if q in prev), None)
            trows.append([label(run, r), r["variant"], f"{f(r, 'median_ms'):.3f}", f"{f(r, 'tflops'):.2f}",
                          pct_peak(r), at_clock(r), cublas_ratio(run, r),
                          x(f(p, "median_ms"), f(r, "median_ms")) if p else ""])
        for r in run.defaults(ch, n):
            prev[r["precision"]] = r
    for prec in run.cublas_precisions():
        c, name = run.cublas(n, prec), CUBLAS_NAMES[prec]
        if c:
            trows.append([name, "", f"{f(c, 'median_ms'):.3f}", f"{f(c, 'tflops'):.2f}", pct_peak(c),
                          at_clock(c), "1.000", ""])
    out += [table(["kernel", "variant", "ms", "TFLOP/s", "% of peak", "% of peak at the clock held",
                   "x cuBLAS", "x the chapter before"], trows, ["---", "---"] + ["---:"] * 6)]

    s = posts()
    out += ["", "## The blog posts' tables", "",
            "What is reproduced as the blogs did it, and what differs:", ""]
    for key in ("post000", "post001", "post002"):
        out += [f"**{s[key]['title']}.**"] + [f"- {d}" for d in s[key]["differs"]]
        if key == "post001":
            out += [f"- The blog: {s[key]['blog']}. Its TILE sweep here is 02's variants (below)."]
        out += [""]
        if key in GENERATORS:
            out += [GENERATORS[key](run, None, {}), ""]

    out += ["## Every variant (`--variant all`)", ""]
    for ch in run.chapters:
        if any(r["table"] == "variants" and r["chapter"] == ch for r in run.gemm):
            out += [f"### {ch}", "", gen_variants(run, ch, {"sizes": "1024,2048,3000,4096"}), ""]

    sizes = run.sizes()
    out += ["## TFLOP/s (and x cuBLAS) by size", ""]
    trows = []
    for ch in run.chapters:
        for prec in run.precisions(ch):
            cells = []
            for n in sizes:
                r = run.default(ch, n, prec)
                cells.append(f"{f(r, 'tflops'):.1f} ({cublas_ratio(run, r)})" if r else "")
            trows.append([ch + (f" {prec.upper()}" if len(run.precisions(ch)) > 1 else "")] + cells)
    for prec in run.cublas_precisions():
        trows.append([f"cuBLAS {prec.upper()}"] +
                     [f"{f(run.cublas(n, prec), 'tflops'):.1f}" if run.cublas(n, prec) else "" for n in sizes])
    out += [table(["kernel"] + [str(n) for n in sizes], trows), ""]

    for prec in ("fp16", "bf16"):  # bench/plan.cu runs the 16-bit defaults there
        chs = sorted({r["chapter"] for r in run.shaped if r["precision"] == prec})[-4:]
        if not chs:
            continue
        P = prec.upper()
        out += [f"## Skinny and rectangular shapes ({P})", "",
                f"The {P} defaults of the last chapters at the plan's other shapes (`bench/plan.h`): "
                f"TFLOP/s and, in brackets, x cuBLAS {P} timed right before.", "",
                gen_shapes(run, None, {"chapters": ",".join(chs), "precision": prec}), ""]

    out += ["## Measured ceilings", "",
            table(["ceiling", "value"],
                  [[f"{p.upper()} dense peak (SMs x FLOP/clock/SM x max clock; common/peak.cpp)",
                    f"{f(r, 'peak_tflops'):.1f} TFLOP/s"] for p in PRECISIONS
                   for r in [next((q for q in rows if q["precision"] == p
                                   and float(q.get("peak_tflops") or 0) > 0), None)] if r] +
                  [[f"cuBLAS {p.upper()}, best size",
                    f"{max(f(r, 'tflops') for r in rows if r['chapter'] == 'cublas' and r['precision'] == p):.1f} TFLOP/s"]
                   for p in PRECISIONS if run.cublas(sizes[-1], p)] +
                  ([["device-to-device copy (bytes read + written)", f"{copy_tb_s(run.ceiling()):.2f} TB/s"]]
                   if run.ceiling() else [])), ""]

    prev_csv = os.path.join(run.dir, "previous_bench.csv")
    if os.path.exists(prev_csv):
        out += ["## Run to run", "", compare(load(prev_csv), rows), ""]

    if run.ncu.kernels:
        specs = [f"{c}:{v}" for c, v in run.ncu.kernels]
        out += [f"## Nsight Compute at {NCU_SIZE}^3 (`scripts/profile.sh`; one launch each, clocks not locked)", "",
                "Every chapter README quotes the rows that show its mechanism; the words are explained in "
                f"[reading the numbers]({os.path.relpath(os.path.join(ROOT, 'docs', 'reading-the-numbers.md'), here)}).", "",
                gen_ncu(run, None, {"kernels": ",".join(specs),
                                    "metrics": "time,clock,registers,occupancy,issue,fma_pipe,fma_share,"
                                               "lds_per_fma,lds_wpi,sts_wpi,lds_conflicts,sts_conflicts,"
                                               "gld_per_req,gst_per_req,dram_tbs,top_stalls"}), ""]
    rpath = os.path.join(run.dir, "rasterization.csv")
    if os.path.exists(rpath):
        rr = [r for r in load(rpath) if r["chapter"] == "rasterization"]
        nr = Ncu(os.path.join(run.dir, "ncu_rasterization.csv"))
        trows = []
        for r in rr:
            base = next(b for b in rr if b["M"] == r["M"] and b["variant"].startswith("rows_"))
            m = nr.get(("rasterization", r["variant"])) or {} if int(r["M"]) == NCU_SIZE else {}
            trows.append([r["M"], r["variant"], f"{f(r, 'median_ms'):.3f}", f"{f(r, 'tflops'):.2f}",
                          f"{f(base, 'median_ms') / f(r, 'median_ms'):.3f}x", r["check"],
                          METRICS["dram_gb"][2](METRICS["dram_gb"][1](m)) if m else "",
                          f"{raw(m, 'lts__t_sector_hit_rate.pct'):.1f}%" if m else ""])
        out += ["## Block rasterization on 07's kernel (`bench/rasterization.cu`)", "",
                "07's kernel unchanged, launched in the default block order (`rows_`) and with its "
                "block index remapped so that groups of 8 or 16 rows of tiles are walked column by "
                f"column (`group8_`, `group16_`); Nsight Compute at {NCU_SIZE}^3 for the bytes.", "",
                table(["size", "block order", "ms", "TFLOP/s", "x rows", "check",
                       f"DRAM GB read + written ({NCU_SIZE})", f"L2 sector hit rate ({NCU_SIZE})"], trows,
                      ["---:", "---"] + ["---:"] * 3 + ["---"] + ["---:"] * 2), ""]
    kpath = os.path.join(run.dir, f"cublas_kernels_{NCU_SIZE}.csv")
    if os.path.exists(kpath):
        ks = load(kpath)
        out += [f"## Which kernels cuBLAS runs at {NCU_SIZE}^3 (`scripts/cublas_kernels.sh`)", "",
                "Every kernel of one cuBLAS call per precision, as Nsight Compute names it; the name "
                "carries the tile shape and, for some, the pipeline stages.", "",
                table(["precision", "kernel", "grid", "block", "registers", "smem B", "ms under ncu"],
                      [[k["precision"].upper(), f"`{k['kernel']}`", k["grid"], k["block"], k["registers"],
                        k["smem_bytes"], k["time_ms"]] for k in ks],
                      ["---", "---", "---:", "---:", "---:", "---:", "---:"]), ""]
    pngs = [p for p in ("tflops_4096.png", "tflops_vs_size.png", "roofline.png", "waves.png")
            if os.path.exists(os.path.join(run.dir, p))]
    if pngs:
        out += ["## Plots", ""] + [f"![{p}]({os.path.relpath(os.path.join(run.dir, p), here)})"
                                   for p in pngs] + [""]
    out += ["## The files", "",
            "- `bench.csv`, `bench.log`: `gemm_bench` (every chapter, cuBLAS, the variants, the copy).",
            "- `machine.csv`: nvidia-smi before and after; `sass_summary.txt`: instruction counts from `cuobjdump -sass`.",
            "- `previous_bench.csv`: the run before this one, for the run-to-run comparison.",
            f"- `ncu_{NCU_SIZE}.csv`: `scripts/profile.sh {NCU_SIZE}`, raw metrics of every kernel the READMEs quote.",
            *[f"- `{os.path.basename(p)}`: `scripts/profile.sh {os.path.basename(p)[4:-4]}`, the kernels the READMEs "
              f"profile at that size (the element path)."
              for p in sorted(glob.glob(os.path.join(run.dir, "ncu_[0-9]*.csv")))
              if os.path.basename(p) != f"ncu_{NCU_SIZE}.csv"],
            *([f"- `cublas_kernels_{NCU_SIZE}.csv`: `scripts/cublas_kernels.sh`, the kernels cuBLAS runs."]
              if os.path.exists(kpath) else []),
            "- `ptxas.txt`: registers, stack and spills of every kernel (`nvcc -Xptxas -v` for this GPU).",
            *(["- `rasterization.csv`, `rasterization.log`, `ncu_rasterization.csv`: the block-order "
               "experiment (`build/bench/rasterization`)."] if os.path.exists(rpath) else []),
            *(["- `mma_peak.csv`, `mma_peak.log`: the mma.sync ceiling (`build/bench/mma_peak`)."]
              if os.path.exists(os.path.join(run.dir, "mma_peak.csv")) else []),
            *(["- `wgmma_peak.csv`, `wgmma_peak.log`: the wgmma ceiling (`build/bench/wgmma_peak`, Hopper only)."]
              if os.path.exists(os.path.join(run.dir, "wgmma_peak.csv")) else []),
            "- `checks/`: the test suite, compute-sanitizer and other logs of the same code."]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
def outputs(d):
    """{path relative to the repository: content} that --write makes from folder d."""
    rel = os.path.relpath(os.path.abspath(d), ROOT)
    run = Run(d)
    if rel != REFERENCE:
        return {os.path.join(rel, "README.md"): results_readme(run, rel)}
    out = {os.path.join("results", "README.md"): results_readme(run, rel)}
    for path, chapter in readme_files():
        if chapter and chapter not in run.chapters:
            # A chapter added since the run: scripts/bench.sh fills its sections.
            print(f"summarize.py: {chapter} has no rows in {rel}/bench.csv yet; its README's "
                  "generated sections are left as they are", file=sys.stderr)
            continue
        text = open(os.path.join(ROOT, path)).read()
        out[path] = fill(text, run, chapter)
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "--write":
        for path, text in outputs(argv[2]).items():
            with open(os.path.join(ROOT, path), "w") as fh:
                fh.write(text)
            print(f"wrote {path}")
    elif len(argv) == 2 and argv[1] == "--check":
        bad = 0
        for path, text in outputs(os.path.join(ROOT, REFERENCE)).items():
            have = open(os.path.join(ROOT, path)).read() if os.path.exists(os.path.join(ROOT, path)) else ""
            if have != text:
                bad += 1
                sys.stdout.writelines(difflib.unified_diff(
                    have.splitlines(True), text.splitlines(True), f"{path} (committed)",
                    f"{path} (generated from {REFERENCE})"))
        if bad:
            print(f"\n{bad} file(s) differ from what `python3 scripts/summarize.py --write {REFERENCE}` "
                  "makes: a number was edited by hand, or the results changed without regenerating.")
            sys.exit(1)
        print(f"every generated section matches {REFERENCE}")
    elif len(argv) == 3 and argv[1] == "--one-default-per-precision":
        run = Run(argv[2])  # the last chapter with a default of each precision
        last = {}
        for ch in run.chapters:
            for r in run.defaults(ch, max(run.sizes())):
                last[r["precision"]] = f"{r['precision']}:{ch}:{r['variant']}"
        print("\n".join(last.values()))
    elif len(argv) == 2 and argv[1] == "--driver-runs":
        print("\n".join(f"{c} {n} {csv_name}" for c, n, csv_name in driver_runs()))
    elif len(argv) in (2, 3) and argv[1] == "--ncu-targets":
        print("\n".join(ncu_targets(int(argv[2]) if len(argv) == 3 else NCU_SIZE)))
    elif len(argv) == 2 and argv[1].endswith(".csv"):
        run_rows = load(argv[1])
        print(table(["kernel", "variant", "size", "check", "ms", "TFLOP/s", "x cuBLAS"],
                    [[r["chapter"], r["variant"], f"{r['M']}x{r['N']}x{r['K']}", r["check"],
                      f"{f(r, 'median_ms'):.3f}", f"{f(r, 'tflops'):.2f}", f"{f(r, 'ratio_to_cublas'):.3f}"]
                     for r in run_rows if r["chapter"] not in ("cublas", "ceiling")],
                    ["---", "---", "---", "---"] + ["---:"] * 3))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
