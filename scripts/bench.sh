#!/usr/bin/env bash
# The full reproduction on this machine's GPU. Builds (or brings the build up to date), then, in
# one process (build/bench/gemm_bench): every chapter's default kernel(s) and cuBLAS (FP32, TF32,
# FP16, BF16) at each size, every other variant at 1024, 2048, 3000 and 4096, the FP16 and BF16
# defaults at the skinny and rectangular shapes of bench/plan.h, a device-copy bandwidth.
# Then the Nsight Compute evidence (when ncu is installed), the SASS counts (when cuobjdump is),
# the plots (when matplotlib is) and the generated tables (scripts/summarize.py --write).
#   usage: scripts/bench.sh              the plan's sizes (bench/plan.h: 256 .. 8192)
#          scripts/bench.sh 4096 [...]   only these sizes (the variants at 1024, 2048, 3000 and
#                                        4096 still run)
#   writes results/<gpu>/: bench.csv, bench.log, machine.csv, mma_peak.csv, wgmma_peak.csv
#   (Hopper only), ncu_4096.csv, ncu_4095.csv (the element path, for the READMEs that profile
#   it), the drivers' runs the READMEs ask for (persistent_8192.csv: 14's variants at 8192,
#   Hopper only), sass_summary.txt, ptxas.txt, *.png
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
. scripts/lib.sh
require_gpu time

# Works after scripts/test.sh (same folder, tests included) or on its own (tests left out).
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGEMM_BUILD_TESTS=OFF
cmake --build "$build" -j"$(nproc)"

out=$(results_dir)
# No sizes given: gemm_bench's own plan (bench/plan.h) decides, so the list lives in one place.
sizes=$(IFS=,; echo "$*")
smi() { nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,driver_version \
          --format=csv,noheader,nounits | head -n 1; }
echo "when,sm_clock_mhz,max_sm_clock_mhz,mem_clock_mhz,power_w,temperature_c,driver" > "$out/machine.csv"
echo "before,$(smi | tr -d ' ')" >> "$out/machine.csv"
# The previous run stays beside the new one: the results README compares the two.
[ -f "$out/bench.csv" ] && mv "$out/bench.csv" "$out/previous_bench.csv"
echo "== gemm_bench ${sizes:+--sizes $sizes} -> $out/bench.csv"
"$build/bench/gemm_bench" ${sizes:+--sizes "$sizes"} --csv "$out/bench.csv" 2>&1 | tee "$out/bench.log"
echo "after,$(smi | tr -d ' ')" >> "$out/machine.csv"

# The block-rasterization experiment on 07's kernel (bench/rasterization.cu).
rm -f "$out/rasterization.csv"
"$build/bench/rasterization" --sizes 2048,4096,8192 --variant all --csv "$out/rasterization.csv" \
  > "$out/rasterization.log" 2>&1 || { cat "$out/rasterization.log"; exit 1; }

# The chapter drivers' own runs that READMEs ask for (`variants ... csv=FILE`: 14's variants at
# 8192); a driver that refuses this GPU (11-28 off Hopper) says so and is left out.
python3 scripts/summarize.py --driver-runs | while read -r c n f; do
  rm -f "$out/$f"
  rc=0
  "$build/$c/$c" --size "$n" --variant all --csv "$out/$f" > "$out/${f%.csv}.log" 2>&1 || rc=$?
  if [ $rc -eq 2 ]; then
    echo "$c refused this GPU: $(tail -n 1 "$out/${f%.csv}.log")"; rm -f "$out/$f"
  elif [ $rc -ne 0 ]; then
    cat "$out/${f%.csv}.log"; exit 1
  fi
done

# The mma.sync ceiling of this GPU (bench/mma_peak.cu), for 09_mma_sync's README.
"$build/bench/mma_peak" --csv "$out/mma_peak.csv" > "$out/mma_peak.log" 2>&1 ||
  { cat "$out/mma_peak.log"; exit 1; }
# The wgmma ceiling (bench/wgmma_peak.cu), Hopper only: elsewhere it says so in one sentence.
rm -f "$out/wgmma_peak.csv"
if ! "$build/bench/wgmma_peak" --csv "$out/wgmma_peak.csv" > "$out/wgmma_peak.log" 2>&1; then
  grep -qE "need a Hopper GPU|without sm_90a code" "$out/wgmma_peak.log" || { cat "$out/wgmma_peak.log"; exit 1; }
  cat "$out/wgmma_peak.log"; rm -f "$out/wgmma_peak.csv"
fi

if command -v ncu >/dev/null; then
  rm -f "$out/ncu_rasterization.csv"
  for v in $("$build/bench/rasterization" --help | sed -n 's/^ *variants: \(.*\) (default.*/\1/p' | tr -d ,); do
    ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum \
        -k regex:gemm_kernel --launch-count 1 --csv --page raw "$build/bench/rasterization" --size 4096 \
        --reps 1 --warmup 0 --no-check --no-cublas --variant "$v" |
      python3 scripts/ncu_table.py --collect rasterization "$v" >> "$out/ncu_rasterization.csv"
  done
  BUILD_DIR=$build scripts/profile.sh 4096
  BUILD_DIR=$build scripts/profile.sh 4095  # the element path, where a README asks for it
  BUILD_DIR=$build scripts/cublas_kernels.sh 4096
else
  echo "Nsight Compute (ncu) is not installed: no profiler evidence this time."
fi
if command -v cuobjdump >/dev/null; then
  for c in [0-9][0-9]_*/; do
    c=${c%/}
    cuobjdump -sass "$build/$c/$c" | awk -v ch="$c" '/Function :/{f=$3}
      /^ +\/\*[0-9a-f]+\*\//{op=$2; if (op ~ /^@/) op=$3;
        if (op ~ /^(LDS|LDSM|LD\.|STS|FFMA|HMMA|HGMMA|UTMA|SYNCS|MEMBAR|LDG|LDGSTS|STG|BAR|LDL|STL)/) n[f" "op]++}
      END{for (k in n) if (k ~ /ch[0-9][0-9]/) print ch, k, n[k]}' | sort
  done > "$out/sass_summary.txt"
else
  echo "cuobjdump is not installed: no SASS instruction counts this time."
fi
# Registers, stack and spills of every kernel as ptxas reports them for this GPU.
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '. ')
[ "$arch" = 90 ] && arch=90a  # 11-28's wgmma exists only on sm_90a (as CMake builds it)
for c in [0-9][0-9]_*/; do
  c=${c%/}
  nvcc -std=c++17 -gencode=arch=compute_$arch,code=sm_$arch -Xptxas -v -I common -c "$c/main.cu" \
       -o /dev/null 2>&1 | awk -v ch="$c" '/Compiling entry function/{f=$7; gsub(/\047/, "", f)}
         /bytes stack frame/{s=$0} /Used [0-9]+ registers/{print ch, f, $5, "registers;", s}' \
       > "$out/ptxas_$c.tmp" &
done
wait
cat "$out"/ptxas_*.tmp | sed 's/  */ /g' > "$out/ptxas.txt" && rm -f "$out"/ptxas_*.tmp
python3 scripts/plot.py "$out" || echo "(no plots)"
python3 scripts/summarize.py --write "$out"
echo
sed -n "/^## Every chapter/,/^## The blog posts/p" results/README.md | sed '$d'
