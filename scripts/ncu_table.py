#!/usr/bin/env python3
"""Condenses Nsight Compute's raw CSV into the per-chapter evidence table (standard library).

  ... | ncu_table.py --collect CHAPTER VARIANT >> raw.csv   keep the metric rows, tagged
  ncu_table.py --table raw.csv                              print the markdown table
"""
import csv
import io
import sys

STALLS = ["barrier", "long_scoreboard", "short_scoreboard", "mio_throttle", "lg_throttle",
          "math_pipe_throttle", "not_selected", "wait", "dispatch_stall", "selected"]


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


def num(m, key):
    try:
        return float(m.get(key, "nan"))
    except ValueError:
        return float("nan")


def table(path):
    kernels = {}
    with open(path, newline="") as f:
        for chapter, variant, kernel, name, value in csv.reader(f):
            kernels.setdefault((chapter, variant), {})[name] = value
    print("| chapter | variant | regs | smem B | achieved occupancy | gld sectors/req | gst sectors/req "
          "| smem ld wavefronts/instr | smem st wavefronts/instr | ld bank conflicts | st bank conflicts "
          "| FMA pipe % | top stall (warps per issue) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for (chapter, variant), m in kernels.items():
        def ratio(a, b):
            x, y = num(m, a), num(m, b)
            return f"{x / y:.2f}" if y and y == y else "-"
        stalls = {s: num(m, f"smsp__average_warps_issue_stalled_{s}_per_issue_active.ratio")
                  for s in STALLS if s != "selected"}
        stalls = {k: v for k, v in stalls.items() if v == v}
        top = max(stalls, key=stalls.get) if stalls else None
        smem = num(m, "launch__shared_mem_per_block_static") + num(m, "launch__shared_mem_per_block_dynamic")
        print(f"| {chapter} | {variant} | {m.get('launch__registers_per_thread', '-')} | {smem:.0f} | "
              f"{num(m, 'sm__warps_active.avg.pct_of_peak_sustained_active'):.1f}% | "
              f"{ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')} | "
              f"{ratio('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum')} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum', 'smsp__inst_executed_op_shared_ld.sum')} | "
              f"{ratio('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'smsp__inst_executed_op_shared_st.sum')} | "
              f"{num(m, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum'):.3g} | "
              f"{num(m, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum'):.3g} | "
              f"{num(m, 'sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active'):.1f} | "
              f"{top + f' ({stalls[top]:.2f})' if top else '-'} |")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--collect":
        collect(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "--table":
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
