#!/usr/bin/env bash
# Runs every chapter at one size (default 4096), each with cuBLAS timed in the same process, and
# prints one table. Builds first if needed.
#   usage: scripts/bench.sh [SIZE] [harness flags, e.g. --reps 50]
#   writes results/<gpu>/bench_<SIZE>.csv
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4096}
shift || true
build=${BUILD_DIR:-build}
. scripts/lib.sh
require_gpu time

chapters=$(ls -d [0-9][0-9]_*/ | tr -d /)
for c in $chapters; do
  if [ ! -x "$build/$c/$c" ]; then
    [ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGEMM_BUILD_TESTS=OFF
    cmake --build "$build" -j"$(nproc)"
    break
  fi
done

out=$(results_dir)
csv=$out/bench_$size.csv
rm -f "$csv"
for c in $chapters; do
  echo "== $c"
  "$build/$c/$c" --size "$size" --csv "$csv" "$@"
done
echo
python3 scripts/summarize.py "$csv"
