#!/usr/bin/env python3
"""Markdown tables from the harness's CSV (standard library only).

  summarize.py FILE.csv            every chapter row: ms, TFLOP/s, % of FP32 peak, ratio to cuBLAS
  summarize.py --seed000 FILE.csv  seed 000's table: GFLOP/s, % of peak, speedup over naive
"""
import csv
import statistics
import sys


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def header(rows):
    r = rows[0]
    return (f"{r['gpu']} (sm_{r['cc'].replace('.', '')}, {r['sms']} SMs, {r['clock_mhz']} MHz, "
            f"FP32 peak {float(r['fp32_peak_tflops']):.1f} TFLOP/s), driver {r['driver']}, "
            f"CUDA {r['runtime']}, cuBLAS {r['cublas']}, {r['date'][:10]}; "
            f"M={r['M']} N={r['N']} K={r['K']}, median of {r['reps']} reps")


def chapter_table(rows):
    out = [header(rows), "",
           "| kernel | variant | check | ms | TFLOP/s | % FP32 peak | cuBLAS ms (same run) | x cuBLAS |",
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if r["chapter"] == "cublas":
            continue
        out.append(f"| {r['chapter']} | {r['variant']} | {r['check']} | {float(r['median_ms']):.3f} | "
                   f"{float(r['tflops']):.2f} | {float(r['pct_fp32_peak']):.1f}% | "
                   f"{float(r['cublas_ms']):.3f} | {float(r['ratio_to_cublas']):.3f} |")
    for prec in ("fp32", "tf32", "fp16"):
        ms = [float(r["median_ms"]) for r in rows if r["chapter"] == "cublas" and r["precision"] == prec]
        tf = [float(r["tflops"]) for r in rows if r["chapter"] == "cublas" and r["precision"] == prec]
        if ms:
            out.append(f"| cuBLAS {prec.upper()} | median of {len(ms)} runs | PASS | "
                       f"{statistics.median(ms):.3f} | {statistics.median(tf):.2f} | | | 1.000 |")
    return "\n".join(out)


SEED000 = [  # (label, chapter, variant, blog GFLOP/s, blog % peak, blog speedup)
    ("naive", "01_naive", None, 990, 6, 1.0),
    ("shared-memory tiling (32x32)", "02_smem_tiling", "tile32", 1309, 8, 1.3),
    ("register tiling 64x64, 4x4/thread", "03_register_tiling", "64x64x8_4x4", 4447, 27, 4.5),
    ("register tiling 128x128, 8x8/thread", "03_register_tiling", "128x128x8_8x8", 6375, 39, 6.4),
]


def seed000_table(rows):
    def find(chapter, variant):
        for r in rows:
            if r["chapter"] == chapter and (variant is None or r["variant"] == variant):
                return r
        return None

    naive = find("01_naive", None)
    out = [header(rows), "",
           "| version | H200 GFLOP/s | H200 % peak | H200 speedup | blog GFLOP/s (3060 Ti) | blog % peak | blog speedup |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for label, chapter, variant, g, p, s in SEED000:
        r = find(chapter, variant)
        if r is None or naive is None:
            continue
        gflops = float(r["tflops"]) * 1e3
        out.append(f"| {label} | {gflops:.0f} | {float(r['pct_fp32_peak']):.1f}% | "
                   f"{gflops / (float(naive['tflops']) * 1e3):.1f}x | {g} | {p}% | {s}x |")
    return "\n".join(out)


def main(argv):
    if len(argv) == 3 and argv[1] == "--seed000":
        print(seed000_table(load(argv[2])))
    elif len(argv) == 2:
        print(chapter_table(load(argv[1])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
