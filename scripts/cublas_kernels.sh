#!/usr/bin/env bash
# Which kernels cuBLAS runs (Nsight Compute): for each precision, one chapter default of that
# precision (from bench.csv) runs once with cuBLAS; every kernel that is neither the chapter's nor
# the harness's is cuBLAS's. Its name carries the tile shape (and for some the stages).
#   usage: scripts/cublas_kernels.sh [SIZE]   (default 4096; needs results/<gpu>/bench.csv)
#   writes results/<gpu>/cublas_kernels_<SIZE>.csv
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4096}
build=${BUILD_DIR:-build}
. scripts/lib.sh
require_ncu
out=$(results_dir)
[ -f "$out/bench.csv" ] || { echo "scripts/cublas_kernels.sh: no $out/bench.csv; run scripts/bench.sh first." >&2; exit 1; }
kernels=$out/cublas_kernels_$size.csv
echo "precision,kernel,grid,block,registers,smem_bytes,time_ms" > "$kernels"
python3 scripts/summarize.py --one-default-per-precision "$out" | while IFS=: read -r prec chapter variant; do
  echo "== ncu cuBLAS $prec (through $chapter $variant)" >&2
  ncu --clock-control none --csv --page raw --metrics \
      launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,gpu__time_duration.sum \
      "$build/$chapter/$chapter" --size "$size" --reps 1 --warmup 0 --no-check --variant "$variant" |
    python3 scripts/ncu_table.py --foreign "$prec" >> "$kernels"
done
echo "wrote $kernels"
