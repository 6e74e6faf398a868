#!/usr/bin/env python3
"""Keeps the metric rows of Nsight Compute's raw CSV, tagged with the kernel (standard library).

  ncu --csv --page raw ... | ncu_table.py --collect CHAPTER VARIANT >> ncu_4096.csv
  ncu --csv --page raw ... | ncu_table.py --foreign PRECISION >> cublas_kernels_4096.csv

--collect: each output line is chapter,variant,kernel,metric,value; scripts/summarize.py makes
the tables. --foreign: one line per distinct kernel that is neither a chapter's (gemm_kernel, or
in a chNN namespace) nor the harness's or common/'s (fill, rounding, conversion, the clock probe, the check,
split K's scaling, the sm_90a probe):
precision,kernel,grid,block,registers,smem,time_ms.
"""
import csv
import io
import re
import sys


HARNESS = ("gemm_kernel", "fill_uniform_kernel", "fill_value_kernel", "round_to_kernel",
           "to_double_kernel", "clock_probe_kernel", "allclose_kernel", "rms_partials_kernel",
           "scale_kernel", "has_sm90a_kernel")


def parse():
    text = sys.stdin.read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit("ncu printed no metrics:\n" + text[-2000:])
    rows = list(csv.reader(io.StringIO(text[start:])))
    return rows[0], rows[2:]  # rows[1] holds the units


def foreign(precision):
    names, data = parse()
    col = {n: i for i, n in enumerate(names)}
    seen = set()
    out = csv.writer(sys.stdout)
    for row in data:
        name = row[col["Kernel Name"]]
        # A chapter's own helper kernels carry its namespace (chNN::); the shared ones (the sm_90a
        # probe of 11-28, common/hopper.cuh) are in HARNESS.
        if any(h in name for h in HARNESS) or re.search(r"\bch\d\d::", name) or name in seen:
            continue
        seen.add(name)
        get = lambda m: row[col[m]].replace(",", "") if m in col else ""
        smem = sum(float(get(m) or 0) for m in ("launch__shared_mem_per_block_static",
                                                 "launch__shared_mem_per_block_dynamic"))
        out.writerow([precision, name, get("launch__grid_size"), get("launch__block_size"),
                      get("launch__registers_per_thread"), f"{smem:.0f}",
                      f"{float(get('gpu__time_duration.sum') or 0) / 1e6:.3f}"])


def collect(chapter, variant):
    names, data = parse()
    out = csv.writer(sys.stdout)
    for row in data:
        for name, value in zip(names, row):
            if "__" in name:
                out.writerow([chapter, variant, row[names.index("Kernel Name")][:60], name,
                              value.replace(",", "")])


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--collect":
        collect(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "--foreign":
        foreign(sys.argv[2])
    else:
        sys.exit(__doc__)
