#!/usr/bin/env bash
# Nsight Compute evidence for each chapter's kernel: the metrics each chapter's README quotes
# (shared-memory wavefronts and bank conflicts, global sectors per request, occupancy, stall
# reasons). Runs one launch per kernel, unchecked, with the clocks left as they are.
#   usage: scripts/profile.sh [SIZE] [CHAPTER[:VARIANT] ...]   (default 4096, every chapter)
#   writes results/<gpu>/ncu_<SIZE>.csv (raw) and prints the condensed table
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4096}
shift || true
build=${BUILD_DIR:-build}

if ! command -v ncu >/dev/null; then
  echo "scripts/profile.sh: Nsight Compute (ncu) is not installed; no profiler metrics collected." >&2
  exit 1
fi
. scripts/lib.sh
require_gpu profile

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(ls -d [0-9][0-9]_*/ | tr -d /))

wanted="launch__registers_per_thread launch__shared_mem_per_block_static
launch__shared_mem_per_block_dynamic launch__occupancy_limit_registers
sm__warps_active.avg.pct_of_peak_sustained_active gpu__time_duration.sum
smsp__inst_executed.sum smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
dram__bytes_read.sum dram__bytes_write.sum lts__t_bytes.sum sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active sm__cycles_elapsed.avg.per_second
smsp__issue_active.avg.pct_of_peak_sustained_active sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed
smsp__inst_executed_pipe_fma.sum
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
smsp__average_warps_issue_stalled_selected_per_issue_active.ratio"
# Keep only the metrics this ncu knows, so a renamed metric costs a column, not the run.
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=""
for m in $wanted; do
  base=${m%%.*}
  if [[ $m == launch__* ]] || grep -qx "$base" <<<"$known"; then metrics="$metrics,$m"; else echo "note: ncu lacks $m" >&2; fi
done
metrics=${metrics#,}

out=$(results_dir)
raw=$out/ncu_$size.csv
rm -f "$raw"
for t in "${targets[@]}"; do
  chapter=${t%%:*}
  variant=""
  [ "$t" != "$chapter" ] && variant=${t#*:}
  echo "== ncu $chapter ${variant:-(default)}" >&2
  ncu --clock-control none --metrics "$metrics" -k regex:gemm_kernel \
      --launch-count 1 --csv --page raw \
      "$build/$chapter/$chapter" --size "$size" --reps 1 --warmup 0 --no-check --no-cublas \
      ${variant:+--variant "$variant"} |
    python3 scripts/ncu_table.py --collect "$chapter" "${variant:-default}" >> "$raw"
done
python3 scripts/ncu_table.py --table "$raw"
