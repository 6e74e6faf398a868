#!/usr/bin/env python3
"""Keeps the metric rows of Nsight Compute's raw CSV, tagged with the kernel (standard library).

  ncu --csv --page raw ... | ncu_table.py --collect CHAPTER VARIANT >> ncu_4096.csv

Each output line is chapter,variant,kernel,metric,value; scripts/summarize.py makes the tables.
"""
import csv
import io
import sys


def collect(chapter, variant):
    text = sys.stdin.read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit("ncu printed no metrics:\n" + text[-2000:])
    rows = list(csv.reader(io.StringIO(text[start:])))
    names, data = rows[0], rows[2:]  # rows[1] holds the units
    out = csv.writer(sys.stdout)
    for row in data:
        for name, value in zip(names, row):
            if "__" in name:
                out.writerow([chapter, variant, row[names.index("Kernel Name")][:60], name,
                              value.replace(",", "")])


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--collect":
        collect(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
