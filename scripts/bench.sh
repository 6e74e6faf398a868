#!/usr/bin/env bash
# The full reproduction on this machine's GPU, in one process (build/bench/gemm_bench):
# every chapter's default kernel(s) and cuBLAS (FP32, TF32, FP16) at each size, 02's TILE sweep
# and 03's configurations at 2048, every variant at 4096, a device-copy bandwidth; then the
# Nsight Compute evidence (when ncu is installed), the SASS counts (when cuobjdump is), the
# plots (when matplotlib is) and results/README.md. Builds first if needed.
#   usage: scripts/bench.sh              sizes 256 512 1000 1024 2048 3000 4096 5000 8192
#          scripts/bench.sh 4096 [...]   only these sizes (the sweeps at 2048/4096 still run)
#   writes results/<gpu>/: bench.csv, bench.log, machine.csv, ncu_4096.*, sass_summary.txt, *.png
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
. scripts/lib.sh
require_gpu time

if [ ! -x "$build/bench/gemm_bench" ]; then
  [ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGEMM_BUILD_TESTS=OFF
  cmake --build "$build" -j"$(nproc)"
fi

out=$(results_dir)
sizes=$(IFS=,; echo "${*:-256,512,1000,1024,2048,3000,4096,5000,8192}")
smi() { nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,driver_version \
          --format=csv,noheader,nounits | head -n 1; }
echo "when,sm_clock_mhz,max_sm_clock_mhz,mem_clock_mhz,power_w,temperature_c,driver" > "$out/machine.csv"
echo "before,$(smi | tr -d ' ')" >> "$out/machine.csv"
# The previous run stays beside the new one: results/README.md compares the two.
[ -f "$out/bench.csv" ] && mv "$out/bench.csv" "$out/previous_bench.csv"
echo "== gemm_bench --sizes $sizes -> $out/bench.csv"
"$build/bench/gemm_bench" --sizes "$sizes" --csv "$out/bench.csv" 2>&1 | tee "$out/bench.log"
echo "after,$(smi | tr -d ' ')" >> "$out/machine.csv"

if command -v ncu >/dev/null; then
  BUILD_DIR=$build scripts/profile.sh 4096 01_naive 02_smem_tiling 03_register_tiling \
    04_transposed_A 05_swizzle 06_coalesced_store 07_double_buffer 08_wmma_tensorcore \
    08_wmma_tensorcore:fp16_128x128x32_w64x64_s3 > "$out/ncu_4096.md"
else
  echo "Nsight Compute (ncu) is not installed: no profiler evidence this time."
fi
if command -v cuobjdump >/dev/null; then
  for c in [0-9][0-9]_*/; do
    c=${c%/}
    cuobjdump -sass "$build/$c/$c" | awk -v ch="$c" '/Function :/{f=$3}
      /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3;
        if (op ~ /^(LDS|LDSM|LD\.|STS|FFMA|HMMA|LDG|LDGSTS|STG|BAR|LDL|STL)/) n[f" "op]++}
      END{for (k in n) if (k ~ /ch0[0-9]/) print ch, k, n[k]}' | sort
  done > "$out/sass_summary.txt"
else
  echo "cuobjdump is not installed: no SASS instruction counts this time."
fi
python3 scripts/plot.py "$out" || echo "(no plots)"
python3 scripts/summarize.py --readme "$out" > results/README.md
echo
sed -n '/^## Every chapter/,/^## Seed 000/p' results/README.md | sed '$d'
