#!/usr/bin/env python3
"""Plots of one results folder.

usage: python3 scripts/plot.py DIR

Reads DIR/bench.csv (written by gemm_bench through scripts/bench.sh) and, when present,
DIR/ncu_4096.csv (written by scripts/profile.sh), and writes into DIR:

  tflops_4096.png     Bars: TFLOP/s of every chapter's default kernel at M=N=K=4096, coloured by
                      precision, each with its value and its share of cuBLAS in the same precision;
                      cuBLAS itself as hatched grey bars. Left panel: FP32 CUDA-core kernels; right
                      panel: tensor-core kernels (they would dwarf the FP32 bars on one axis).
                      Linear scales.
  tflops_vs_size.png  Lines: TFLOP/s against M=N=K for every chapter (one colour per chapter kernel)
                      and cuBLAS (black, one dash style per precision). Top panel FP32, bottom panel
                      tensor cores; the sizes are evenly spaced categories; linear y.
  roofline.png        Log-log roofline at 4096: compute roofs per precision from the GPU's SM count,
                      clock and NVIDIA's per-SM rates, the memory roof from the measured copy
                      bandwidth, each chapter kernel at its Nsight Compute DRAM intensity and cuBLAS
                      at its compulsory-traffic intensity.
  waves.png           Waves, from bench.csv alone: top, TFLOP/s against M=N=K of every chapter's
                      FP32 default (the same colours as tflops_vs_size.png); bottom, bars per
                      block-tile shape: the share of the GPU's block slots the grid fills, blocks /
                      (waves x slots), with slots = SMs x blocks per SM and waves = ceil(blocks /
                      slots), blocks counting every block of a split K (bench.csv's k_splits);
                      the number on a bar is blocks / slots before rounding up. The block
                      tile BM x BN comes from the variant name ("128x128x8_8x8" and 01's "8x32":
                      BM x BN; "tile32": 32 x 32); chapters whose names do not parse are left out.
                      Sizes where the fastest of these kernels runs below half its best rate get
                      their own pair of panels on the left (own linear y), so they stay readable.

Nothing about the chapters is written here: they, their order (by name) and their precisions come
from the table=="sizes" rows of bench.csv, so a new chapter folder shows up in every plot. Rows of
chapter "cublas" are the reference; the "ceiling" rows are bandwidth probes, not GEMMs; the
"variants" table is not plotted. Missing or extra columns are tolerated. The PNG bytes depend only
on the input (fixed figure sizes and dpi, no software version or date embedded).
"""
import csv
import math
import os
import re
import sys
from dataclasses import dataclass, field

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
except ImportError:
    print("plot.py: matplotlib is not installed (pip install matplotlib), so no plots were made.",
          file=sys.stderr)
    sys.exit(1)

SIZE = 4096  # the bar chart and roofline size; profile.sh's ncu_4096.csv is named after it
DPI = 120
SAVE = {"dpi": DPI, "metadata": {"Software": None}}  # no version string: same input, same bytes

# Per precision: bar colour, legend text, input element bytes (for compulsory traffic).
PRECISIONS = {
    "fp32": ("#4878b0", "FP32 CUDA cores", 4),
    "tf32": ("#e49a2e", "TF32 tensor cores", 4),
    "fp16": ("#4f9d5a", "FP16 in, FP32 out, tensor cores", 2),
}
OTHER_PRECISION = ("#9467bd", "{} tensor cores", 2)  # unknown precision: assume 16-bit inputs
CUBLAS_FACE, CUBLAS_HATCH = "#d0d0d0", "///"
# cuBLAS lines and stars: black/grey with their own dashes, never a chapter colour.
CUBLAS_DASH = {"fp32": (0, (7, 2)), "tf32": (0, (7, 2, 1.5, 2)), "fp16": (0, (2, 1.5))}
CUBLAS_FILL = {"fp32": "black", "tf32": "#909090", "fp16": "white"}
MARKERS = "osD^vP<>Xph"

# Dense multiply-adds per clock per SM by compute capability (FLOP = 2 x FMA), and where the
# numbers come from. Pairs not listed get no roof rather than a guess: GA10x/AD10x tensor rates
# differ between GeForce and professional parts, so 8.6/8.9 only get the FP32 roof.
RATES = {
    "7.0": ({"fp32": 64, "fp16": 512},
            "NVIDIA Tesla V100 GPU Architecture whitepaper (per-SM rates)"),
    "8.0": ({"fp32": 64, "tf32": 512, "fp16": 1024},
            "NVIDIA A100 Tensor Core GPU Architecture whitepaper (per-SM rates)"),
    "8.6": ({"fp32": 128}, "NVIDIA Ampere GA102 GPU Architecture whitepaper (per-SM rates)"),
    "8.9": ({"fp32": 128}, "NVIDIA Ada GPU Architecture whitepaper (per-SM rates)"),
    # Hopper: 128 FP32 FMA, 1024 TF32 and 2048 FP16 (FP32 accumulate) dense tensor FMA per clock.
    "9.0": ({"fp32": 128, "tf32": 1024, "fp16": 2048},
            "NVIDIA H100 Tensor Core GPU Architecture whitepaper (per-SM rates)"),
}


def prec_info(p):
    colour, text, in_bytes = PRECISIONS.get(p, OTHER_PRECISION)
    return colour, text.format(p.upper()), in_bytes


def prec_order(p):
    return (list(PRECISIONS).index(p) if p in PRECISIONS else len(PRECISIONS), p)


def num(row, key):
    """A cell as a float, or None when the column is missing, empty or not a finite number."""
    try:
        v = float(row.get(key) or "")
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def square_size(row):
    m, n, k = num(row, "M"), num(row, "N"), num(row, "K")
    return int(m) if m is not None and m == n == k else None


@dataclass
class Series:
    chapter: str
    precision: str
    rows: dict = field(default_factory=dict)  # size -> bench.csv row
    first: bool = False  # the chapter's first precision in the CSV: what its binary runs by default
    label: str = ""
    colour: tuple = None
    marker: str = "o"

    def tflops(self, size):
        return num(self.rows[size], "tflops") if size in self.rows else None


def load(d):
    """(chapter series in plot order, cuBLAS {precision: {size: row}}, ceiling rows, all rows)."""
    with open(os.path.join(d, "bench.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    series, cublas, ceilings = {}, {}, []
    for r in rows:
        ch, prec = r.get("chapter") or "", (r.get("precision") or "").lower()
        if ch == "ceiling":
            ceilings.append(r)
            continue
        size = square_size(r)
        if size is None or num(r, "tflops") is None:
            continue
        if ch == "cublas":
            cublas.setdefault(prec, {}).setdefault(size, r)
        elif r.get("table") == "sizes":
            s = series.setdefault((ch, prec), Series(ch, prec))
            s.rows.setdefault(size, r)  # first row wins if a size was run twice
    order = sorted(series.values(), key=lambda s: s.chapter)  # stable: CSV order within a chapter
    precs_of = {}
    for s in order:
        precs_of.setdefault(s.chapter, []).append(s)
    for group in precs_of.values():
        group[0].first = True
        for s in group:
            s.label = s.chapter + (" " + s.precision.upper() if len(group) > 1 else "")
    # Chapter colours: tab10 minus its grey (grey is cuBLAS's), then tab20's light shades.
    cols = [c for i, c in enumerate(plt.get_cmap("tab10").colors) if i != 7]
    cols += [c for i, c in enumerate(plt.get_cmap("tab20").colors) if i % 2 and i != 15]
    for i, s in enumerate(order):
        s.colour, s.marker = cols[i % len(cols)], MARKERS[i % len(MARKERS)]
    return order, cublas, ceilings, rows


def device(rows):
    """gpu name, cc, sms, clock (MHz) and fp32_peak_tflops from the first GEMM row that has them."""
    gemm = [r for r in rows if r.get("chapter") != "ceiling"] or rows
    r = next((r for r in gemm if r.get("gpu")), gemm[0] if gemm else {})
    cc = (r.get("cc") or "").strip()
    try:
        cc = f"{float(cc):.1f}"
    except ValueError:
        pass
    return r.get("gpu") or "unknown GPU", cc, num(r, "sms"), num(r, "clock_mhz"), \
        num(r, "fp32_peak_tflops")


def split_panels(series, cublas):
    """[(title, series, cuBLAS precisions)]: FP32 CUDA cores first, then the tensor-core rest."""
    panels = []
    for title, pick in (("FP32 on CUDA cores", lambda p: p == "fp32"),
                        ("tensor cores", lambda p: p != "fp32")):
        ss = [s for s in series if pick(s.precision)]
        cps = sorted((p for p in cublas if pick(p)), key=prec_order)
        if ss or cps:
            panels.append((title, ss, cps))
    return panels


def bar_4096(series, cublas, d, gpu):
    panels = split_panels(series, cublas)
    widths = [max(3, len(ss) + len(cps)) for _, ss, cps in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(14, 6.5), layout="constrained",
                             gridspec_kw={"width_ratios": widths}, squeeze=False)
    for ax, (title, ss, cps) in zip(axes[0], panels):
        bars = []  # (label, value, face colour, hatch, text under the value)
        # Per precision: its chapter kernels, then the cuBLAS bar they are measured against.
        for p in sorted({s.precision for s in ss} | set(cps), key=prec_order):
            ref = num(cublas[p][SIZE], "tflops") if SIZE in cublas.get(p, {}) else None
            for s in (s for s in ss if s.precision == p):
                t = s.tflops(SIZE)
                share = f"\n{100 * t / ref:.0f}% of cuBLAS" if t and ref else ""
                bars.append((s.label, t, prec_info(p)[0], None, share))
            if p in cps:
                bars.append((f"cuBLAS {p.upper()}", ref, CUBLAS_FACE, CUBLAS_HATCH, ""))
        top = max([v for _, v, _, _, _ in bars if v] or [1.0])
        for i, (label, v, face, hatch, share) in enumerate(bars):
            if v is None:  # keep the chapter visible even without a 4096 run
                ax.text(i, 0.02 * top, f"no {SIZE}\nrun", ha="center", va="bottom", fontsize=8)
                continue
            ax.bar(i, v, width=0.7, color=face, hatch=hatch, edgecolor="black" if hatch else face,
                   linewidth=0.8)
            ax.text(i, v + 0.01 * top, f"{v:.1f}{share}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(bars)))
        ax.set_xticklabels([b[0] for b in bars], rotation=30, ha="right", fontsize=8.5)
        ax.set_xlim(-0.6, len(bars) - 0.4)
        ax.set_ylim(0, top * 1.15)
        ax.set_ylabel("TFLOP/s (linear scale)")
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    precs = sorted({s.precision for s in series}, key=prec_order)
    handles = [Patch(facecolor=prec_info(p)[0], label=prec_info(p)[1]) for p in precs]
    handles.append(Patch(facecolor=CUBLAS_FACE, hatch=CUBLAS_HATCH, edgecolor="black",
                         label="cuBLAS, same precision"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=9)
    fig.suptitle(f"{gpu}: each chapter's default kernel at M=N=K={SIZE} "
                 "(text: TFLOP/s and share of cuBLAS in the same precision)")
    fig.savefig(os.path.join(d, "tflops_4096.png"), **SAVE)
    plt.close(fig)


def by_size(series, cublas, d, gpu):
    sizes = sorted({size for s in series for size in s.rows})
    pos = {size: i for i, size in enumerate(sizes)}  # categorical x: 1000 and 1024 stay apart
    panels = split_panels(series, cublas)
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 4.6 * len(panels)), layout="constrained",
                             sharex=True, squeeze=False)
    for ax, (title, ss, cps) in zip(axes[:, 0], panels):
        for s in ss:
            pts = sorted((pos[z], s.tflops(z)) for z in s.rows)
            ax.plot(*zip(*pts), color=s.colour, marker=s.marker, markersize=5, linewidth=1.6,
                    label=s.label)
        for p in cps:
            pts = sorted((pos[z], num(r, "tflops")) for z, r in cublas[p].items() if z in pos)
            if pts:
                ax.plot(*zip(*pts), color="black", linestyle=CUBLAS_DASH.get(p, "--"),
                        linewidth=1.6, label=f"cuBLAS {p.upper()}")
        ax.set_ylim(bottom=0)
        ax.set_ylabel("TFLOP/s (linear scale)")
        ax.set_title(title, fontsize=11)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False)
    ax = axes[-1, 0]
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([str(z) for z in sizes])
    ax.set_xlim(-0.3, len(sizes) - 0.7)
    ax.set_xlabel("M = N = K (one evenly spaced column per size run, not to scale)")
    fig.suptitle(f"{gpu}: TFLOP/s against size")
    fig.savefig(os.path.join(d, "tflops_vs_size.png"), **SAVE)
    plt.close(fig)


def read_ncu(d):
    """{(chapter, variant): DRAM bytes read + written by its first kernel}, or None without file."""
    path = os.path.join(d, f"ncu_{SIZE}.csv")
    if not os.path.exists(path):
        return None
    kernel, dram = {}, {}
    with open(path, newline="") as f:
        for rec in csv.reader(f):  # no header: chapter,variant,kernel_name,metric_name,value
            if len(rec) != 5:
                continue
            ch, var, name, metric, value = rec
            key = (ch, var)
            if kernel.setdefault(key, name) != name:
                continue  # only the first kernel profiled for this (chapter, variant)
            if metric in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
                try:
                    dram.setdefault(key, {})[metric] = float(value.replace(",", ""))
                except ValueError:
                    pass
    return {k: v["dram__bytes_read.sum"] + v["dram__bytes_write.sum"] for k, v in dram.items()
            if len(v) == 2}


def compulsory_bytes(prec, m, n, k):
    """Each input read once, C read and written once in FP32: the least any GEMM must move."""
    return prec_info(prec)[2] * (m * k + k * n) + 8 * m * n


def memory_bandwidth(ceilings):
    """Measured copy bandwidth in TB/s, or None. The ceiling row stores M=1, N=2, K=bytes/2, so
    its `tflops` (2MNK/time) is bytes read+written per second / 1e12; newer CSVs may carry
    `gb_per_s` instead."""
    copies = [r for r in ceilings if any(w in (r.get("variant") or "").lower()
                                         for w in ("copy", "dram"))]
    for r in copies:
        if num(r, "gb_per_s") is not None:
            return num(r, "gb_per_s") / 1e3
        if num(r, "tflops") is not None:
            return num(r, "tflops")
    return None


def roofs_for(cc, sms, clock_mhz, fp32_peak):
    """([(precision, TFLOP/s)], footnote line): SMs x clock x per-SM rate, else the CSV's own
    FP32 peak, else no compute roof."""
    if cc in RATES and sms and clock_mhz:
        rates, source = RATES[cc]
        roofs = [(p, sms * clock_mhz * 1e6 * 2 * fma / 1e12) for p, fma in rates.items()]
        text = ", ".join(f"{p.upper()} {fma}" for p, fma in rates.items())
        text += "; FP16 with FP32 accumulate" if "fp16" in rates else ""
        return sorted(roofs, key=lambda pr: pr[1]), (
            f"Compute roofs: {sms:.0f} SMs x {clock_mhz:.0f} MHz x 2 x dense FMA/clk/SM ({text}); "
            f"source: {source}.")
    if fp32_peak:
        return [("fp32", fp32_peak)], f"Compute roof: bench.csv fp32_peak_tflops (no per-SM " \
            f"rates for cc {cc or '?'} or no sms/clock_mhz columns)."
    return [], f"No compute roof: no per-SM rates for cc {cc or '?'} and no fp32_peak_tflops."


def roofline(series, cublas, ceilings, rows, d, gpu):
    _, cc, sms, clock, fp32_peak = device(rows)
    roofs, roof_note = roofs_for(cc, sms, clock, fp32_peak)
    bw = memory_bandwidth(ceilings)
    ncu = read_ncu(d)
    flops = 2.0 * SIZE ** 3

    points = []  # (label, intensity, TFLOP/s, colour, marker, filled)
    for s in series:
        t = s.tflops(SIZE)
        if t is None:
            points.append((f"{s.label}: no {SIZE} run", None, None, s.colour, s.marker, True))
            continue
        # ncu names the run without --variant "default"; a chapter's other precisions by variant.
        key = (s.chapter, s.rows[SIZE].get("variant") or "")
        measured = (ncu or {}).get(key)
        if measured is None and s.first:
            measured = (ncu or {}).get((s.chapter, "default"))
        ai = flops / measured if measured else flops / compulsory_bytes(s.precision, SIZE, SIZE,
                                                                         SIZE)
        points.append((f"{s.label}: {ai:.0f} FLOP/B, {t:.1f} TFLOP/s", ai, t, s.colour,
                       s.marker, bool(measured) or ncu is None))
    stars = []  # (label, intensity, TFLOP/s, fill)
    for p in sorted(cublas, key=prec_order):
        if SIZE in cublas[p]:
            t = num(cublas[p][SIZE], "tflops")
            ai = flops / compulsory_bytes(p, SIZE, SIZE, SIZE)
            stars.append((f"cuBLAS {p.upper()} (compulsory bytes): {ai:.0f} FLOP/B, "
                          f"{t:.1f} TFLOP/s", ai, t, CUBLAS_FILL.get(p, "#606060")))

    ais = [a for _, a, *_ in points + stars if a]
    tfs = [t for _, _, t, *_ in points + stars if t]
    if not tfs:
        print(f"plot.py: no run at {SIZE}, so no roofline.png", file=sys.stderr)
        return
    ridges = [peak / bw for _, peak in roofs] if bw else []
    xmin = 2 ** math.floor(math.log2(min(ais + ridges) / 3))
    # Headroom on the right for the roof labels, which sit at the right end.
    xmax = 2 ** math.ceil(math.log2(max(ais + ridges) * 8))
    ymin = 10 ** math.floor(math.log10(min(tfs + [bw * xmin] if bw else tfs) / 2))
    ymax = max([peak for _, peak in roofs] + tfs) * 2.5

    fig, ax = plt.subplots(figsize=(14, 7.5), layout="constrained")
    fig.get_layout_engine().set(rect=(0, 0.09, 1, 0.91))  # room for the footnote
    roof_style = {"color": "#404040", "linewidth": 1.6, "zorder": 1}
    if bw:
        top_ridge = max(ridges) if ridges else xmax
        ax.plot([xmin, top_ridge], [bw * xmin, bw * top_ridge], **roof_style)
        # Label along the memory roof; transform_rotates_text turns the data-space slope into
        # the on-screen angle at draw time, so it follows the log axes.
        x0 = xmin * 1.6
        ax.text(x0, bw * x0 * 1.15, f"measured copy {bw:.2f} TB/s", fontsize=9, color="#404040",
                rotation=math.degrees(math.atan2(bw, 1)), rotation_mode="anchor",
                transform_rotates_text=True, ha="left", va="bottom")
    for p, peak in roofs:
        x0 = peak / bw if bw else xmin
        ax.plot([x0, xmax], [peak, peak], **roof_style)
        # Labelled at the right end: near the ridge the text would cross the memory roof.
        kind = "CUDA-core" if p == "fp32" else "tensor-core"
        ax.text(xmax / 1.1, peak * 1.06, f"{p.upper()} {kind} roof: {peak:.1f} TFLOP/s",
                fontsize=9, color="#404040", ha="right", va="bottom")
    for label, ai, t, colour, marker, filled in points:
        ax.scatter([ai] if ai else [], [t] if t else [], s=70, marker=marker, zorder=3,
                   facecolor=colour if filled else "white", edgecolor=colour, linewidth=1.5,
                   label=label)
    for label, ai, t, fill in stars:
        ax.scatter([ai], [t], s=240, marker="*", zorder=4, facecolor=fill, edgecolor="black",
                   linewidth=1.0, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.yaxis.set_major_locator(LogLocator(base=10))
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.grid(which="major", alpha=0.3)
    ax.set_xlabel(f"arithmetic intensity at {SIZE}: FLOP per DRAM byte (log scale, base 2)")
    ax.set_ylabel("TFLOP/s (log scale)")
    ax.set_title(f"{gpu} (cc {cc}): roofline at M=N=K={SIZE}")
    title = f"kernel at {SIZE}"
    if ncu is None:
        title += f"\n(no ncu_{SIZE}.csv: all at compulsory bytes)"
    elif not all(f for *_, f in points):
        title += "\n(hollow: no ncu bytes, compulsory bytes)"
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False,
              title=title, title_fontsize=9)
    foot = [roof_note,
            f"Memory roof: measured device-to-device copy in bench.csv ({bw:.2f} TB/s, bytes read "
            "+ written)." if bw else "No measured copy bandwidth in bench.csv: no memory roof.",
            f"Intensity = 2 x {SIZE}^3 FLOP / bytes. Chapter kernels: "
            + (f"Nsight Compute dram__bytes_read.sum + dram__bytes_write.sum (ncu_{SIZE}.csv). "
               if ncu is not None else f"no ncu_{SIZE}.csv, so compulsory bytes as for cuBLAS. "),
            "cuBLAS (not profiled) at compulsory bytes: 4(MK+KN+2MN) for FP32/TF32 inputs, "
            "2(MK+KN)+8MN for FP16 inputs (each input read once, FP32 C read and written once)."]
    fig.text(0.01, 0.01, "\n".join(foot), fontsize=8.5, ha="left", va="bottom")
    fig.savefig(os.path.join(d, "roofline.png"), **SAVE)
    plt.close(fig)


def block_tile(variant):
    """(BM, BN) of C that one block computes, read from a variant's name, or None.

    The names come from common/variants.h: "BMxBNxBK_TMxTN" (03 on), "BXxBY" (01: one thread per
    output, so the thread block is the tile) and "tileT" (02)."""
    m = re.fullmatch(r"(\d+)x(\d+)(?:x\d+_\d+x\d+)?", variant or "")
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.fullmatch(r"tile(\d+)", variant or "")
    return (int(m.group(1)),) * 2 if m else None


def chapter_span(names):
    """The chapters in a legend line: whole names for up to two, else their NN prefixes."""
    prefixes = [re.match(r"(\d+)_", n) for n in names]
    if len(names) <= 2 or not all(prefixes):
        return ", ".join(names)
    return "chapters " + ", ".join(m.group(1) for m in prefixes)


def waves(series, d, gpu):
    # FP32 defaults whose block tile parses and whose rows say how many blocks an SM holds.
    picked = []  # (series, (BM, BN), blocks per SM, SMs)
    for s in series:
        if s.precision != "fp32" or not s.rows:
            continue
        r = next(iter(s.rows.values()))
        tile, per_sm, sms = block_tile(r.get("variant")), num(r, "blocks_per_sm"), num(r, "sms")
        if tile and per_sm and sms:
            picked.append((s, tile, int(per_sm), int(sms)))
    if not picked:
        print("plot.py: no FP32 chapter with a parsable block tile, so no waves.png",
              file=sys.stderr)
        return
    # One bar colour per wave geometry: (BM, BN, blocks per SM, SMs, blocks per tile of C at each
    # size: the k_splits column, 1 where it is missing) -> its series.
    groups = {}
    for s, tile, per_sm, sms in picked:
        splits = tuple(sorted((z, int(num(r, "k_splits") or 1)) for z, r in s.rows.items()))
        groups.setdefault((*tile, per_sm, sms, splits), []).append(s)

    sizes = sorted({z for s, *_ in picked for z in s.rows})
    best = {s.chapter: max(s.tflops(z) or 0 for z in s.rows) for s, *_ in picked}
    top = max(best.values())
    # Sizes where even the fastest kernel is below half the best rate: their own panels, own y.
    small = [z for z in sizes
             if max((s.tflops(z) or 0) for s, *_ in picked if z in s.rows) < top / 2]
    cols = [c for c in (small, [z for z in sizes if z not in small]) if c]
    fig, axes = plt.subplots(2, len(cols), figsize=(14, 9), layout="constrained", squeeze=False,
                             gridspec_kw={"width_ratios": [len(c) for c in cols],
                                          "height_ratios": [1.1, 1]})
    fig.get_layout_engine().set(rect=(0, 0.08, 1, 0.92))  # room for the footnote
    shades = ["#b0b0b0", "#707070", "#303030", "#d8d8d8"]
    hatches = ["", "//", "..", "xx"]
    width = 0.8 / len(groups)
    for j, col in enumerate(cols):
        pos = {z: i for i, z in enumerate(col)}
        ax = axes[0, j]
        for s, *_ in picked:
            pts = sorted((pos[z], s.tflops(z)) for z in s.rows if z in pos)
            ax.plot(*zip(*pts), color=s.colour, marker=s.marker, markersize=5, linewidth=1.6,
                    label=s.label)
        ax.set_ylim(0, max(s.tflops(z) or 0 for s, *_ in picked for z in s.rows if z in pos) * 1.12)
        ax.set_ylabel("TFLOP/s (linear scale)")
        # Two-line titles: the small-size panels are narrow.
        part = ("\n(small sizes, own y scale)" if col is small else "\n(larger sizes)") \
            if len(cols) > 1 else ""
        ax.set_title("TFLOP/s" + part, fontsize=10)
        ax = axes[1, j]
        for g, ((bm, bn, per_sm, sms, splits), members) in enumerate(groups.items()):
            slots = sms * per_sm
            per_tile = dict(splits)
            split_note = ", K split at " + ", ".join(
                f"{z} (x{n})" for z, n in splits if n > 1) if any(n > 1 for _, n in splits) else ""
            chapters = [s.chapter for s in members]
            run = [z for z in col if any(z in s.rows for s in members)]
            for z in run:
                blocks = math.ceil(z / bm) * math.ceil(z / bn) * per_tile.get(z, 1)
                w = math.ceil(blocks / slots)
                fill = blocks / (w * slots)
                x = pos[z] + (g - (len(groups) - 1) / 2) * width
                ax.bar(x, fill, width=width * 0.95, color=shades[g % len(shades)],
                       hatch=hatches[g % len(hatches)], edgecolor="black", linewidth=0.6,
                       label=(f"{bm}x{bn} tile, {per_sm} blocks/SM x {sms} SMs = {slots} slots"
                              f"{split_note}\n{chapter_span(chapters)}") if z == run[0] else None)
                q = blocks / slots
                ax.text(x, fill + 0.02, f"{q:.2f}" if q >= 0.1 else f"{q:.3f}", rotation=90,
                        ha="center", va="bottom", fontsize=7.5)
        ax.set_ylim(0, 1.32)
        ax.set_ylabel("blocks / (waves x slots)")
        ax.set_title("block slots filled\n(small sizes)" if col is small and len(cols) > 1 else
                     "block slots filled,\naveraged over the waves" + part.replace("\n", " "),
                     fontsize=10)
        for ax in axes[:, j]:
            ax.set_xticks(range(len(col)))
            ax.set_xticklabels([str(z) for z in col])
            ax.set_xlim(-0.5, len(col) - 0.5)
            ax.grid(axis="y", alpha=0.3)
            ax.set_axisbelow(True)
        axes[1, j].set_xlabel("M = N = K" if col is small and len(cols) > 1 else
                              "M = N = K (evenly spaced columns, not to scale)")
    axes[0, -1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False,
                       title="FP32 default kernel", title_fontsize=9)
    axes[1, -1].legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5, frameon=False,
                       title="block tile (from the variant name)", title_fontsize=9)
    fig.suptitle(f"{gpu}: TFLOP/s against size, and how full the last wave of blocks is")
    foot = ["Bars: blocks / (waves x slots), with blocks = ceil(M / BM) x ceil(N / BN) x k_splits, "
            "slots = SMs x blocks per SM (bench.csv columns sms, blocks_per_sm), "
            "waves = ceil(blocks / slots).",
            "Number on a bar: blocks / slots, the waves before rounding up. A bar at 1: every wave "
            "full; below 1: the last wave (or the only one) leaves slots idle. Assumes every block "
            "takes the same time."]
    if len(cols) > 1:
        foot.append("Left panels (own y scale): the sizes at which the fastest of these kernels "
                    "runs below half of its best rate.")
    fig.text(0.01, 0.01, "\n".join(foot), fontsize=8.5, ha="left", va="bottom")
    fig.savefig(os.path.join(d, "waves.png"), **SAVE)
    plt.close(fig)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    d = argv[1]
    series, cublas, ceilings, rows = load(d)
    if not series:
        sys.exit(f"plot.py: no table=sizes rows in {os.path.join(d, 'bench.csv')}; no plots made.")
    gpu = device(rows)[0]
    bar_4096(series, cublas, d, gpu)
    by_size(series, cublas, d, gpu)
    roofline(series, cublas, ceilings, rows, d, gpu)
    waves(series, d, gpu)
    print(f"plot.py: wrote tflops_4096.png, tflops_vs_size.png, roofline.png and waves.png in {d}")


if __name__ == "__main__":
    main(sys.argv)
