#!/usr/bin/env python3
"""Plots from a results folder (needs matplotlib):

  plot.py DIR   writes DIR/tflops_4096.png, DIR/tflops_vs_size.png and, when DIR/ncu_4096.csv
                has the DRAM byte counts, DIR/roofline.png
"""
import csv
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot.py: matplotlib is not installed (pip install matplotlib); no plots made.")

ORDER = ["01_naive", "02_smem_tiling", "03_register_tiling", "04_transposed_A", "05_swizzle",
         "06_coalesced_store", "07_double_buffer", "08_wmma_tensorcore"]
COLORS = {"fp32": "tab:blue", "tf32": "tab:orange", "fp16": "tab:green"}


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def kernels(rows, size):
    """(label, precision, row) for each chapter's default kernel(s) at `size`."""
    out = []
    for ch in ORDER:
        for r in rows:
            if r["chapter"] == ch and r["table"] == "sizes" and int(r["M"]) == size:
                label = ch + (" " + r["precision"].upper() if ch.startswith("08") else "")
                out.append((label, r["precision"], r))
    return out


def cublas(rows, size, prec):
    for r in rows:
        if r["chapter"] == "cublas" and int(r["M"]) == size and r["precision"] == prec:
            return float(r["tflops"])
    return None


def bar_4096(rows, d, gpu):
    ks = kernels(rows, 4096)
    fig, ax = plt.subplots(figsize=(10, 5))
    ax.bar(range(len(ks)), [float(r["tflops"]) for _, _, r in ks],
           color=[COLORS[p] for _, p, _ in ks])
    for i, (_, _, r) in enumerate(ks):
        ax.text(i, float(r["tflops"]) * 1.05, f"{float(r['tflops']):.1f}", ha="center", fontsize=8)
    for prec in ("fp32", "tf32", "fp16"):
        t = cublas(rows, 4096, prec)
        if t:
            ax.axhline(t, color=COLORS[prec], linestyle="--", linewidth=1,
                       label=f"cuBLAS {prec.upper()} {t:.0f} TFLOP/s")
    ax.set_xticks(range(len(ks)))
    ax.set_xticklabels([k for k, _, _ in ks], rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("TFLOP/s (log scale)")
    ax.set_title(f"Every chapter at M=N=K=4096 on the {gpu} (bar colour: precision)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "tflops_4096.png"), dpi=120)


def by_size(rows, d, gpu):
    sizes = sorted({int(r["M"]) for r in rows if r["table"] == "sizes"})
    fig, ax = plt.subplots(figsize=(10, 6))
    for ch in ORDER:
        for prec in (("tf32", "fp16") if ch.startswith("08") else ("fp32",)):
            pts = [(int(r["M"]), float(r["tflops"])) for r in rows
                   if r["chapter"] == ch and r["table"] == "sizes" and r["precision"] == prec]
            if pts:
                pts.sort()
                ax.plot(*zip(*pts), marker="o", markersize=3,
                        label=ch + (" " + prec.upper() if ch.startswith("08") else ""))
    for prec in ("fp32", "tf32", "fp16"):
        pts = [(s, cublas(rows, s, prec)) for s in sizes if cublas(rows, s, prec)]
        ax.plot(*zip(*pts), linestyle="--", color=COLORS[prec], label=f"cuBLAS {prec.upper()}")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes], fontsize=7, rotation=60)
    ax.set_xlabel("M = N = K")
    ax.set_ylabel("TFLOP/s (log scale)")
    ax.set_title(f"TFLOP/s against size on the {gpu}")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "tflops_vs_size.png"), dpi=120)


def roofline(rows, d, gpu):
    path = os.path.join(d, "ncu_4096.csv")
    if not os.path.exists(path):
        print("plot.py: no ncu_4096.csv, so no roofline (scripts/profile.sh makes it)")
        return
    dram = {}
    for ch, var, _, name, value in csv.reader(open(path)):
        if name in ("dram__bytes_read.sum", "dram__bytes_write.sum") and var == "default":
            dram[ch] = dram.get(ch, 0.0) + float(value)
    copy = [float(r["tflops"]) for r in rows if r["chapter"] == "ceiling"]
    if not dram or not copy:
        print("plot.py: no DRAM byte counts or copy bandwidth, so no roofline")
        return
    bw = copy[0] * 1e12  # bytes/s
    peak = float(rows[0]["fp32_peak_tflops"]) * 1e12
    fig, ax = plt.subplots(figsize=(9, 6))
    xs = [2 ** (i / 4) for i in range(-8, 60)]
    ax.plot(xs, [min(bw * x, peak) / 1e12 for x in xs], color="black",
            label=f"FP32: {peak / 1e12:.1f} TFLOP/s peak, {bw / 1e12:.2f} TB/s copy")
    for prec in ("fp32", "tf32", "fp16"):
        t = cublas(rows, 4096, prec)
        if t:
            ax.plot(xs, [min(bw * x / 1e12, t) for x in xs], color=COLORS[prec], linestyle="--",
                    linewidth=1, label=f"cuBLAS {prec.upper()} at 4096: {t:.0f} TFLOP/s")
    flops = 2.0 * 4096 ** 3
    placed = 0
    for label, prec, r in kernels(rows, 4096):
        ch = r["chapter"]
        if ch not in dram or (ch.startswith("08") and prec != "tf32"):
            continue
        x = flops / dram[ch]
        ax.scatter([x], [float(r["tflops"])], color=COLORS[prec], zorder=3)
        # 03-07 sit close together: alternate the labels left and right of their points.
        ax.annotate(label, (x, float(r["tflops"])), fontsize=7, textcoords="offset points",
                    xytext=(6, -3) if placed % 2 == 0 else (-6, -3),
                    ha="left" if placed % 2 == 0 else "right")
        placed += 1
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity at 4096: FLOP per DRAM byte (Nsight Compute)")
    ax.set_ylabel("TFLOP/s")
    ax.set_title(f"Roofline on the {gpu}: where each chapter sits")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "roofline.png"), dpi=120)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    d = argv[1]
    rows = load(os.path.join(d, "bench.csv"))
    gpu = rows[0]["gpu"]
    bar_4096(rows, d, gpu)
    by_size(rows, d, gpu)
    roofline(rows, d, gpu)
    print(f"plot.py: plots written to {d}")


if __name__ == "__main__":
    main(sys.argv)
