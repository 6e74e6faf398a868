#!/usr/bin/env bash
# Nsight Compute evidence: the raw metrics the READMEs' profiler tables are generated from
# (scripts/summarize.py computes the ratios). Profiles one launch per kernel, unchecked, with the
# clocks left as they are.
#   usage: scripts/profile.sh [SIZE] [CHAPTER[:VARIANT] | cublas_fp32 ...]
#          no kernels named: every kernel a README's profiler table at SIZE asks for
#          (scripts/summarize.py --ncu-targets SIZE) and, at 4096, every chapter's default, into
#          a new ncu_<SIZE>.csv; kernels named: only their rows of it are replaced, and the
#          tables regenerated
#   writes results/<gpu>/ncu_<SIZE>.csv (raw: chapter, variant, kernel, metric, value)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4096}
shift || true
build=${BUILD_DIR:-build}

. scripts/lib.sh
require_ncu

targets=("$@")
partial=${#targets[@]}
if [ ${#targets[@]} -eq 0 ]; then
  if [ "$size" = 4096 ]; then
    for c in [0-9][0-9]_*/; do targets+=("${c%/}:default"); done
  fi
  for t in $(python3 scripts/summarize.py --ncu-targets "$size"); do
    [[ " ${targets[*]} " == *" $t "* ]] || targets+=("$t")
  done
fi

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
smsp__average_warps_issue_stalled_selected_per_issue_active.ratio
smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio
smsp__average_warps_issue_stalled_membar_per_issue_active.ratio
l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_requests_pipe_lsu_mem_local_op_st.sum
sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
sm__inst_executed_pipe_tensor_op_hmma.sum smsp__inst_executed_op_ldsm.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
sm__throughput.avg.pct_of_peak_sustained_elapsed l1tex__throughput.avg.pct_of_peak_sustained_active
lts__throughput.avg.pct_of_peak_sustained_elapsed dram__throughput.avg.pct_of_peak_sustained_elapsed"
# Keep only the metrics this ncu knows, so a renamed metric costs a column, not the run.
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=""
for m in $wanted; do
  base=${m%%.*}
  # launch__ and __throughput metrics are not in --query-metrics' list but always exist.
  if [[ $m == launch__* || $m == *__throughput.* ]] || grep -qx "$base" <<<"$known"; then metrics="$metrics,$m"; else echo "note: ncu lacks $m" >&2; fi
done
metrics=${metrics#,}

if [ ${#targets[@]} -eq 0 ]; then
  echo "no README asks for a profile at $size^3: nothing to do."
  exit 0
fi
out=$(results_dir)
raw=$out/ncu_$size.csv
[ "$partial" -gt 0 ] && [ -f "$raw" ] || : > "$raw"
for t in "${targets[@]}"; do
  chapter=${t%%:*}
  variant=""
  [ "$t" != "$chapter" ] && variant=${t#*:}
  [ "$variant" = default ] && variant=""
  echo "== ncu $chapter ${variant:-(default)}" >&2
  # Named kernels replace their own rows only, so the other READMEs' tables keep theirs.
  grep -v "^$chapter,${variant:-default}," "$raw" > "$raw.tmp" || true
  mv "$raw.tmp" "$raw"
  if [ "$chapter" = cublas_fp32 ]; then
    # cuBLAS's FP32 GEMM as the drivers call it: 07's driver, its own kernel unprofiled.
    ncu --clock-control none --metrics "$metrics" -k regex:'xmma|cutlass|cublas' \
        --launch-count 1 --csv --page raw \
        "$build/07_double_buffer/07_double_buffer" --size "$size" --reps 1 --warmup 0 --no-check |
      python3 scripts/ncu_table.py --collect "$chapter" default >> "$raw"
    continue
  fi
  if [ "$chapter" = cublas_fp16 ]; then
    # cuBLAS's FP16-in / FP32-out GEMM as the drivers call it: 10's driver, FP16 only.
    ncu --clock-control none --metrics "$metrics" -k regex:'nvjet|xmma|cutlass' \
        --launch-count 1 --csv --page raw \
        "$build/10_cp_async/10_cp_async" --size "$size" --reps 1 --warmup 0 --no-check \
        --variant fp16_128x256x32_w64x64_s4 |
      python3 scripts/ncu_table.py --collect "$chapter" default >> "$raw"
    continue
  fi
  ncu --clock-control none --metrics "$metrics" -k regex:gemm_kernel \
      --launch-count 1 --csv --page raw \
      "$build/$chapter/$chapter" --size "$size" --reps 1 --warmup 0 --no-check --no-cublas \
      ${variant:+--variant "$variant"} |
    python3 scripts/ncu_table.py --collect "$chapter" "${variant:-default}" >> "$raw"
done
echo "wrote $raw (${#targets[@]} kernels)"
if [ "$partial" -gt 0 ] && [ -f "$out/bench.csv" ]; then
  python3 scripts/summarize.py --write "$out"  # the READMEs' profiler tables, from the new rows
fi

