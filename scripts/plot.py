#!/usr/bin/env python3
"""Plots of one results folder.

usage: python3 scripts/plot.py DIR

Reads DIR/bench.csv (written by gemm_bench through scripts/bench.sh) and, when present,
DIR/ncu_4096.csv (written by scripts/profile.sh), and writes into DIR:

  tflops_4096.png     Bars: TFLOP/s of every chapter's default kernel at M=N=K=4096, coloured by
                      precision, each with its value, its share of cuBLAS in the same precision and,
                      where bench.csv has pct_peak_at_clock, its share of the dense peak at the SM
                      clock it held; cuBLAS itself as hatched grey bars. Left panel: FP32 CUDA-core
                      kernels; right panel: tensor-core kernels. Linear scales.
  tflops_vs_size.png  Lines: TFLOP/s against M=N=K for every chapter (one colour per chapter kernel)
                      and cuBLAS (black, one dash style per precision). A hollow marker: the run
                      left the chapter's fast path (access "element" where the chapter has a wider
                      path at other sizes, or "staged" copies). Top panel FP32, bottom panel tensor
                      cores; the sizes are evenly spaced categories; linear y.
  roofline.png        Log-log roofline at 4096: per precision, bench.csv's peak_tflops (the dense
                      peak at the maximum SM clock, solid) and the same at the median sm_clock_mhz
                      of its rows at 4096 (the clock held, dashed); the memory roof from the
                      measured copy bandwidth; each chapter kernel at its Nsight Compute DRAM
                      intensity and cuBLAS at its compulsory-traffic intensity, each point labelled.
  waves.png           From bench.csv alone: top, TFLOP/s against M=N=K of every chapter's FP32
                      default (colours and hollow markers as in tflops_vs_size.png); bottom, per
                      block-tile shape (BM x BN from the variant name: "128x128x8_8x8", 01's "8x32",
                      02's "tile32"; names that do not parse are left out), the share of the block
                      slots the grid fills, blocks / (waves x slots), slots = SMs x blocks per SM,
                      waves = ceil(blocks / slots), blocks counting every split of K (k_splits).
                      Sizes where the fastest of these kernels runs below half its best rate get
                      their own pair of panels on the left (own linear y), so they stay readable.

Nothing about the chapters is written here: they, their order (by name) and their precisions come
from the table=="sizes" rows of bench.csv, so a new chapter folder shows up in every plot. Rows of
chapter "cublas" are the reference; the "ceiling" rows are bandwidth probes, not GEMMs; the
"variants" table is not plotted. Missing or extra columns are tolerated. The PNG bytes depend only
on the input (fixed figure sizes and dpi, no software version or date embedded).
"""
import csv
import itertools
import math
import os
import re
import statistics
import sys
from dataclasses import dataclass, field

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.transforms import Bbox
    from matplotlib.ticker import NullFormatter
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
    "bf16": ("#c44e52", "BF16 in, FP32 out, tensor cores", 2),
}
OTHER_PRECISION = ("#9467bd", "{} tensor cores", 2)  # unknown precision: assume 16-bit inputs
CUBLAS_FACE, CUBLAS_HATCH = "#d0d0d0", "///"
# cuBLAS lines and stars: black/grey with their own dashes, never a chapter colour.
CUBLAS_DASH = {"fp32": (0, (7, 2)), "tf32": (0, (7, 2, 1.5, 2)), "fp16": (0, (2, 1.5)),
               "bf16": (0, (4, 1.5, 1, 1.5, 1, 1.5))}
CUBLAS_FILL = {"fp32": "black", "tf32": "#909090", "fp16": "white", "bf16": "#606060"}
MARKERS = "osD^vP<>Xph"


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
    for _, group in itertools.groupby(order, key=lambda s: s.chapter):
        group = list(group)
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
    """gpu, cc, clock_mhz (maximum SM clock), fp32_peak_tflops: the first GEMM row with a gpu."""
    gemm = [r for r in rows if r.get("chapter") != "ceiling"] or rows
    r = next((r for r in gemm if r.get("gpu")), gemm[0] if gemm else {})
    return (r.get("gpu") or "unknown GPU", r.get("cc") or "?", num(r, "clock_mhz"),
            num(r, "fp32_peak_tflops"))


def off_fast_path(s, size):
    """Whether the row ran off the chapter's fast path: staged copies, or element-by-element
    accesses in a chapter that has a wider path elsewhere (01 and 02 only have the element one)."""
    a = s.rows[size].get("access") or ""
    return "staged" in a or "element" in a and any("element" not in (r.get("access") or "")
                                                   for r in s.rows.values())


def size_lines(ax, s, pos):
    """s's TFLOP/s against the categorical x positions pos; True if any marker is hollow."""
    pts = sorted((pos[z], s.tflops(z), off_fast_path(s, z)) for z in s.rows if z in pos)
    x, y, off = zip(*pts)
    ax.plot(x, y, color=s.colour, marker=s.marker, markersize=5, linewidth=1.6, label=s.label,
            markevery=[i for i, o in enumerate(off) if not o])
    ax.plot([v for v, o in zip(x, off) if o], [v for v, o in zip(y, off) if o], linestyle="",
            marker=s.marker, markersize=6, markerfacecolor="white", markeredgecolor=s.colour)
    return any(off)


def legend_right(ax, hollow=False, **kw):
    """The axes' legend to its right, with the hollow-marker entry when hollow."""
    handles, _ = ax.get_legend_handles_labels()
    if hollow:
        handles.append(Line2D([], [], linestyle="", marker="o", markerfacecolor="white",
                              markeredgecolor="black", label="hollow: element-by-element or "
                              "staged copies,\nnot the chapter's fast path"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8.5,
              frameon=False, **kw)


def save(fig, d, name, foot=()):
    """Writes DIR/name, with the footnote lines foot at the bottom left, and closes fig."""
    fig.text(0.01, 0.01, "\n".join(foot), fontsize=8.5, ha="left", va="bottom")
    fig.savefig(os.path.join(d, name), **SAVE)
    plt.close(fig)


def split_panels(series, cublas):
    """[(title, series, cuBLAS precisions)]: FP32 CUDA cores first, then the tensor-core rest."""
    panels = [(title, [s for s in series if (s.precision == "fp32") == fp32],
               sorted((p for p in cublas if (p == "fp32") == fp32), key=prec_order))
              for title, fp32 in (("FP32 on CUDA cores", True), ("tensor cores", False))]
    return [panel for panel in panels if panel[1] or panel[2]]


def at_clock(row):
    """A bar's share of the dense peak at the clock it held, as a text line, or ""."""
    pct = num(row, "pct_peak_at_clock")
    return f"\n{pct:.0f}% of peak" if pct and pct > 0 else ""


def bar_4096(series, cublas, d, gpu):
    panels = split_panels(series, cublas)
    fig, axes = plt.subplots(1, len(panels), figsize=(14, 6.5), layout="constrained", squeeze=False,
                             gridspec_kw={"width_ratios": [max(3, len(ss) + len(cps))
                                                           for _, ss, cps in panels]})
    for ax, (title, ss, cps) in zip(axes[0], panels):
        bars = []  # (label, value, face colour, hatch, text under the value)
        # Per precision: its chapter kernels, then the cuBLAS bar they are measured against.
        for p in sorted({s.precision for s in ss} | set(cps), key=prec_order):
            ref = cublas[p].get(SIZE, {}) if p in cps else {}
            for s in (s for s in ss if s.precision == p):
                t, r = s.tflops(SIZE), s.rows.get(SIZE, {})
                share = f"\n{100 * t / num(ref, 'tflops'):.0f}% of cuBLAS" if t and ref else ""
                bars.append((s.label, t, prec_info(p)[0], None, share + at_clock(r)))
            if p in cps:
                bars.append((f"cuBLAS {p.upper()}", num(ref, "tflops"), CUBLAS_FACE, CUBLAS_HATCH,
                             at_clock(ref)))
        top = max([v for _, v, _, _, _ in bars if v] or [1.0])
        # Each bar's text on one line, upright: side by side, three lines of neighbours overlap.
        for i, (label, v, face, hatch, share) in enumerate(bars):
            if v is None:  # keep the chapter visible even without a 4096 run
                ax.text(i, 0.02 * top, f"no {SIZE}\nrun", ha="center", va="bottom", fontsize=8)
                continue
            ax.bar(i, v, width=0.7, color=face, hatch=hatch, edgecolor="black" if hatch else face,
                   linewidth=0.8)
            ax.text(i, v + 0.01 * top, f"{v:.1f}{share}".replace("\n", ", "), ha="center",
                    va="bottom", rotation=90, fontsize=7.5)
        ax.set_xticks(range(len(bars)), [b[0] for b in bars], rotation=30, ha="right", fontsize=8.5)
        ax.set(xlim=(-0.6, len(bars) - 0.4), ylim=(0, top * 1.9), ylabel="TFLOP/s (linear scale)",
               title=title)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    precs = sorted({s.precision for s in series}, key=prec_order)
    handles = [Patch(facecolor=prec_info(p)[0], label=prec_info(p)[1]) for p in precs]
    handles.append(Patch(facecolor=CUBLAS_FACE, hatch=CUBLAS_HATCH, edgecolor="black",
                         label="cuBLAS, same precision"))
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles), fontsize=9)
    held = any(at_clock(r) for s in series for r in [s.rows.get(SIZE, {})])
    fig.suptitle(f"{gpu}: each chapter's default kernel at M=N=K={SIZE} (text: TFLOP/s, share of "
                 "cuBLAS in the same precision" + (",\nand % of the dense peak at the SM clock "
                 "held during the run: bench.csv pct_peak_at_clock)" if held else ")"))
    save(fig, d, "tflops_4096.png")


def by_size(series, cublas, d, gpu):
    sizes = sorted({size for s in series for size in s.rows})
    pos = {size: i for i, size in enumerate(sizes)}  # categorical x: 1000 and 1024 stay apart
    panels = split_panels(series, cublas)
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 4.6 * len(panels)), layout="constrained",
                             sharex=True, squeeze=False)
    for ax, (title, ss, cps) in zip(axes[:, 0], panels):
        hollow = [size_lines(ax, s, pos) for s in ss]
        for p in cps:
            pts = sorted((pos[z], num(r, "tflops")) for z, r in cublas[p].items() if z in pos)
            ax.plot(*zip(*pts), color="black", linestyle=CUBLAS_DASH.get(p, "--"), linewidth=1.6,
                    label=f"cuBLAS {p.upper()}")  # no points: no line, no legend entry
        ax.set(ylim=(0, None), ylabel="TFLOP/s (linear scale)")
        ax.set_title(title, fontsize=11)
        ax.grid(alpha=0.3)
        legend_right(ax, any(hollow))
    axes[-1, 0].set(xticks=range(len(sizes)), xticklabels=[str(z) for z in sizes],
                    xlim=(-0.3, len(sizes) - 0.7),
                    xlabel="M = N = K (one evenly spaced column per size run, not to scale)")
    fig.suptitle(f"{gpu}: TFLOP/s against size")
    save(fig, d, "tflops_vs_size.png")


def read_ncu(d):
    """{(chapter, variant): DRAM bytes read + written by its first kernel}, or None without file."""
    path = os.path.join(d, f"ncu_{SIZE}.csv")
    if not os.path.exists(path):
        return None
    kernel, dram = {}, {}
    with open(path, newline="") as f:
        for rec in csv.reader(f):  # no header: chapter,variant,kernel_name,metric_name,value
            # Only the first kernel profiled for a (chapter, variant) counts.
            if len(rec) == 5 and kernel.setdefault(tuple(rec[:2]), rec[2]) == rec[2] and \
                    rec[3] in ("dram__bytes_read.sum", "dram__bytes_write.sum"):
                dram.setdefault(tuple(rec[:2]), {})[rec[3]] = num({0: rec[4].replace(",", "")}, 0)
    return {k: sum(v.values()) for k, v in dram.items() if len(v) == 2 and None not in v.values()}


def compulsory_bytes(prec, m, n, k):
    """Each input read once, C read and written once in FP32: the least any GEMM must move."""
    return prec_info(prec)[2] * (m * k + k * n) + 8 * m * n


def compute_roofs(series, cublas, rows):
    """([(precision, peak_tflops (FP32 of older CSVs: fp32_peak_tflops), the median sm_clock_mhz of
    its rows at SIZE or None)] for the precisions with a peak, clock_mhz)."""
    _, _, clock, fp32_peak = device(rows)
    roofs = []
    for p in sorted({s.precision for s in series} | set(cublas), key=prec_order):
        rs = [r for s in series if s.precision == p for r in s.rows.values()]
        rs += cublas.get(p, {}).values()
        peak = next((v for r in rs if (v := num(r, "peak_tflops") or 0) > 0),
                    fp32_peak if p == "fp32" else None)
        held = [c for r in rs if square_size(r) == SIZE and (c := num(r, "sm_clock_mhz") or 0) > 0]
        if peak:
            roofs.append((p, peak, statistics.median(held) if held and clock else None))
    return roofs, clock


def place_labels(ax, marks, obstacles):
    """Writes each mark's short label next to it, at the nearest of 32 offsets where its box is
    inside the axes and clear of the obstacles (display-space boxes) and of the earlier labels."""
    inside = ax.get_window_extent()
    spots = [(r * dx, r * dy) for r in (6, 13, 20, 28) for dx, dy in
             ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))]
    for _, x, y, _, text, colour in marks:
        for dx, dy in spots:
            a = ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", fontsize=8,
                            ha=("right", "center", "left")[(dx > 0) - (dx < 0) + 1],
                            va=("top", "center", "bottom")[(dy > 0) - (dy < 0) + 1],
                            color=colour, zorder=5, in_layout=False)
            box = a.get_window_extent()
            if (dx, dy) == spots[-1] or inside.x0 <= box.x0 and box.x1 <= inside.x1 and \
                    box.y1 <= inside.y1 and not any(box.overlaps(o) for o in obstacles):
                break
            a.remove()
        obstacles.append(box)


def roofline(series, cublas, ceilings, rows, d, gpu):
    roofs, clock = compute_roofs(series, cublas, rows)
    # The memory roof: the measured device copy (the ceiling copy row's gb_per_s) in TB/s.
    bw = next((num(r, "gb_per_s") / 1e3 for r in ceilings if "copy" in (r.get("variant") or "")
               and num(r, "gb_per_s")), None)
    ncu = read_ncu(d)
    flops = 2.0 * SIZE ** 3

    marks = []  # (legend label, intensity, TFLOP/s, scatter style, short label, its colour)
    unmeasured = False
    for s in series:
        t = s.tflops(SIZE)
        if t is None:
            marks.append((f"{s.label}: no {SIZE} run", None, None,
                          dict(marker=s.marker, color=s.colour), "", ""))
            continue
        # ncu names the run without --variant "default"; a chapter's other precisions by variant.
        measured = (ncu or {}).get((s.chapter, s.rows[SIZE].get("variant") or "")) or \
            (ncu or {}).get((s.chapter, "default" if s.first else None))
        unmeasured |= ncu is not None and not measured
        ai = flops / (measured or compulsory_bytes(s.precision, SIZE, SIZE, SIZE))
        marks.append((f"{s.label}: {ai:.0f} FLOP/B, {t:.1f} TFLOP/s", ai, t,
                      dict(s=70, marker=s.marker, zorder=4, linewidth=1.5, edgecolor=s.colour,
                           facecolor=s.colour if measured or ncu is None else "white"),
                      s.label.split("_")[0] + s.label[len(s.chapter):],  # "08 TF32"
                      [0.6 * c for c in s.colour[:3]]))  # darker than the marker: legible
    for p in sorted(cublas, key=prec_order):
        if SIZE in cublas[p]:  # stars under the chapter markers: a kernel on a star stays visible
            t, ai = num(cublas[p][SIZE], "tflops"), flops / compulsory_bytes(p, SIZE, SIZE, SIZE)
            marks.append((f"cuBLAS {p.upper()} (compulsory bytes): {ai:.0f} FLOP/B, {t:.1f} "
                          "TFLOP/s", ai, t, dict(s=240, marker="*", zorder=3, alpha=0.8,
                                                 linewidth=1.0, edgecolor="black",
                                                 facecolor=CUBLAS_FILL.get(p, "#606060")),
                          f"cuBLAS {p.upper()}", "black"))
    ais, tfs = [m[1] for m in marks if m[1]], [m[2] for m in marks if m[2]]
    if not tfs:
        print(f"plot.py: no run at {SIZE}, so no roofline.png", file=sys.stderr)
        return
    ridges = [peak / bw for _, peak, _ in roofs] if bw else []
    xmin = 2 ** math.floor(math.log2(min(ais + ridges) / 3))
    # Headroom on the right for the roof labels, which sit at the right end.
    xmax = 2 ** math.ceil(math.log2(max(ais + ridges) * 16))
    ymin = 10 ** math.floor(math.log10(min(tfs + [bw * xmin] if bw else tfs) / 2))
    ymax = max([peak for _, peak, _ in roofs] + tfs) * 2.5

    fig, ax = plt.subplots(figsize=(18, 8.5), dpi=DPI, layout="constrained")
    fig.get_layout_engine().set(rect=(0, 0.11, 1, 0.89))  # room for the footnote
    style = {"color": "#404040", "linewidth": 1.6, "zorder": 1}
    texts, flat = [], []  # roof labels; (left end, TFLOP/s) of the flat roofs
    if bw:
        top_ridge = max(ridges) if ridges else xmax
        ax.plot([xmin, top_ridge], [bw * xmin, bw * top_ridge], **style)
        # Label along the memory roof; transform_rotates_text turns the data-space slope into
        # the on-screen angle at draw time, so it follows the log axes.
        x0 = xmin * 1.6
        texts.append(ax.text(x0, bw * x0 * 1.15, f"measured copy {bw:.2f} TB/s", fontsize=9,
                             color="#404040", rotation=math.degrees(math.atan2(bw, 1)),
                             rotation_mode="anchor", transform_rotates_text=True, va="bottom"))
    for p, peak, held in roofs:
        # Labelled at the right end (near the ridge the text would cross the memory roof): the
        # solid roof above its line, the dashed one at the clock held on its line, which it cuts.
        same = held is None or abs(held - clock) < 0.005 * clock
        lines = [(peak, "-", clock, "max" + (", held" if held and same else ""), 1.06, "bottom")]
        lines += [] if same else [(peak * held / clock, "--", held, "held", 1, "center")]
        for y, dash, mhz, what, lift, va in lines:
            flat.append((y / bw if bw else xmin, y))
            ax.plot([flat[-1][0], xmax], [y, y], **style, linestyle=dash)
            texts.append(ax.text(xmax / 1.1, y * lift, f"{p.upper()}: {y:.1f} TFLOP/s at "
                                 f"{mhz or 0:.0f} MHz {what}", fontsize=9, color="#404040",
                                 ha="right", va=va, zorder=2, bbox={"facecolor": "white",
                                                                    "edgecolor": "none", "pad": 1}))
    for label, ai, t, kw, *_ in marks:
        ax.scatter([ai] if ai else [], [t] if t else [], label=label, **kw)
    ax.set_xscale("log", base=2)
    ax.set(yscale="log", xlim=(xmin, xmax), ylim=(ymin, ymax), ylabel="TFLOP/s (log scale)",
           xlabel=f"arithmetic intensity at {SIZE}: FLOP per DRAM byte (log scale, base 2)",
           title=f"{gpu} (cc {device(rows)[1]}): roofline at M=N=K={SIZE}")
    ax.xaxis.set_major_formatter("{x:g}")
    ax.yaxis.set_major_formatter("{x:g}")
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.grid(which="major", alpha=0.3)
    title = f"kernel at {SIZE} (number: the chapter)" + (
        f"\n(no ncu_{SIZE}.csv: all at compulsory bytes)" if ncu is None else
        "\n(hollow: no ncu bytes, compulsory bytes)" if unmeasured else "")
    # FP16 and BF16 rows of every Hopper chapter: two columns, or the legend outgrows the figure.
    legend_right(ax, title=title, title_fontsize=9, ncol=2 if len(marks) > 20 else 1)
    fig.canvas.draw()  # the final layout, so that the labels can be placed in display space
    px = ax.transData.transform
    marks = [m for m in marks if m[1]]
    place_labels(ax, marks, [t.get_window_extent() for t in texts] +
                 [Bbox(px([(x, y), (xmax, y)]) + [[0, -2], [0, 2]]) for x, y in flat] +
                 [Bbox.from_bounds(*(px((ai, t)) - r / 2), r, r) for _, ai, t, kw, *_ in marks
                  for r in [math.sqrt(kw["s"]) * DPI / 72]])  # marker size: square points
    held = ", ".join(f"{p.upper()} {h:.0f} MHz" for p, _, h in roofs if h)
    missing = [p.upper() for p in sorted({s.precision for s in series} | set(cublas),
                                         key=prec_order) if p not in [r[0] for r in roofs]]
    foot = [f"Compute roofs (FP32 on CUDA cores, the others on tensor cores), solid: bench.csv "
            f"peak_tflops, SMs x dense FLOP/clk/SM x clock_mhz ({clock or 0:.0f} MHz, the maximum "
            "SM clock)" + (f";\ndashed: the same at the clock held, the median sm_clock_mhz of "
                           f"the points' rows of that precision (the clock probe after each timed "
                           f"launch: {held})." if held else ", or fp32_peak_tflops for older "
                           "CSVs.\nNo sm_clock_mhz in bench.csv: no roof at the clock held.")
            + (f" No peak_tflops for {', '.join(missing)}: no roof." if missing else ""),
            f"Memory roof: measured device-to-device copy in bench.csv ({bw:.2f} TB/s, bytes read "
            "+ written)." if bw else "No measured copy bandwidth in bench.csv: no memory roof.",
            f"Intensity = 2 x {SIZE}^3 FLOP / bytes. Chapter kernels: "
            + (f"Nsight Compute dram__bytes_read.sum + dram__bytes_write.sum (ncu_{SIZE}.csv)."
               if ncu is not None else f"no ncu_{SIZE}.csv, so compulsory bytes as for cuBLAS."),
            "cuBLAS (not profiled) at compulsory bytes: 4(MK+KN+2MN) for FP32/TF32 inputs, "
            "2(MK+KN)+8MN for FP16 and BF16 inputs (each input read once, FP32 C read and written "
            "once)."]
    save(fig, d, "roofline.png", foot)


def block_tile(variant):
    """(BM, BN) of C that one block computes, read from a variant's name, or None.

    The names come from common/variants.h: "BMxBNxBK_TMxTN" (03 on), "BXxBY" (01: one thread per
    output, so the thread block is the tile) and "tileT" (02)."""
    m = re.fullmatch(r"(\d+)x(\d+)(?:x\d+_\d+x\d+)?|tile(\d+)", variant or "")
    return None if m is None else (int(m[1]), int(m[2])) if m[1] else (int(m[3]),) * 2


def chapter_span(names):
    """The chapters in a legend line: whole names for up to two, else their NN prefixes."""
    return ", ".join(names) if len(names) <= 2 else \
        "chapters " + ", ".join(n.split("_")[0] for n in names)


def waves(series, d, gpu):
    # FP32 defaults whose block tile parses and whose rows say how many blocks an SM holds.
    picked = []  # (series, (BM, BN), blocks per SM, SMs)
    for s in (s for s in series if s.precision == "fp32" and s.rows):
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
    top = max(s.tflops(z) or 0 for s, *_ in picked for z in s.rows)
    # Sizes where even the fastest kernel is below half the best rate: their own panels, own y.
    small = [z for z in sizes
             if max((s.tflops(z) or 0) for s, *_ in picked if z in s.rows) < top / 2]
    cols = [c for c in (small, [z for z in sizes if z not in small]) if c]
    fig, axes = plt.subplots(2, len(cols), figsize=(14, 9), layout="constrained", squeeze=False,
                             gridspec_kw={"width_ratios": [len(c) for c in cols],
                                          "height_ratios": [1.1, 1]})
    fig.get_layout_engine().set(rect=(0, 0.08, 1, 0.92))  # room for the footnote
    shades, hatches = ["#b0b0b0", "#707070", "#303030", "#d8d8d8"], ["", "//", "..", "xx"]
    width, hollow = 0.8 / len(groups), False
    for j, col in enumerate(cols):
        pos = {z: i for i, z in enumerate(col)}
        ax = axes[0, j]
        hollow |= any([size_lines(ax, s, pos) for s, *_ in picked if set(s.rows) & set(pos)])
        ax.set(ylim=(0, max(s.tflops(z) or 0 for s, *_ in picked for z in s.rows if z in pos)
                     * 1.12), ylabel="TFLOP/s (linear scale)")
        # Two-line titles: the small-size panels are narrow.
        part = "\n(small sizes, own y scale)" if col is small else "\n(larger sizes)" * bool(small)
        ax.set_title("TFLOP/s" + part, fontsize=10)
        ax = axes[1, j]
        for g, ((bm, bn, per_sm, sms, splits), members) in enumerate(groups.items()):
            slots, per_tile = sms * per_sm, dict(splits)
            split_note = ", K split at " + ", ".join(
                f"{z} (x{n})" for z, n in splits if n > 1) if any(n > 1 for _, n in splits) else ""
            run = [z for z in col if any(z in s.rows for s in members)]
            for z in run:
                blocks = math.ceil(z / bm) * math.ceil(z / bn) * per_tile.get(z, 1)
                fill = (q := blocks / slots) / math.ceil(q)  # blocks / (waves x slots)
                x = pos[z] + (g - (len(groups) - 1) / 2) * width
                ax.bar(x, fill, width=width * 0.95, color=shades[g % len(shades)],
                       hatch=hatches[g % len(hatches)], edgecolor="black", linewidth=0.6,
                       label=(f"{bm}x{bn} tile, {per_sm} blocks/SM x {sms} SMs = {slots} slots"
                              f"{split_note}\n{chapter_span([s.chapter for s in members])}")
                       if z == run[0] else None)
                ax.text(x, fill + 0.02, f"{q:.{2 if q >= 0.1 else 3}f}", rotation=90, ha="center",
                        va="bottom", fontsize=7.5)
        ax.set(ylim=(0, 1.32), ylabel="blocks / (waves x slots)")
        ax.set_title("block slots filled\n(small sizes)" if col is small else
                     "block slots filled,\naveraged over the waves" + part.replace("\n", " "),
                     fontsize=10)
        for ax in axes[:, j]:
            ax.set(xticks=range(len(col)), xticklabels=[str(z) for z in col],
                   xlim=(-0.5, len(col) - 0.5))
            ax.grid(axis="y", alpha=0.3)
            ax.set_axisbelow(True)
        axes[1, j].set_xlabel("M = N = K" if col is small else
                              "M = N = K (evenly spaced columns, not to scale)")
    legend_right(axes[0, -1], hollow, title="FP32 default kernel", title_fontsize=9)
    legend_right(axes[1, -1], title="block tile (from the variant name)", title_fontsize=9)
    fig.suptitle(f"{gpu}: TFLOP/s against size, and how full the last wave of blocks is")
    foot = ["Bars: blocks / (waves x slots), with blocks = ceil(M / BM) x ceil(N / BN) x k_splits, "
            "slots = SMs x blocks per SM (bench.csv columns sms, blocks_per_sm), "
            "waves = ceil(blocks / slots).",
            "Number on a bar: blocks / slots, the waves before rounding up. A bar at 1: every wave "
            "full; below 1: the last wave (or the only one) leaves slots idle. Assumes every block "
            "takes the same time."]
    if small:
        foot.append("Left panels (own y scale): the sizes at which the fastest of these kernels "
                    "runs below half of its best rate.")
    save(fig, d, "waves.png", foot)


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
