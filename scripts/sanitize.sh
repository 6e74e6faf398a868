#!/usr/bin/env bash
# compute-sanitizer over every chapter's variants: memcheck (out-of-bounds and misaligned
# accesses), racecheck (shared-memory hazards) and synccheck (barrier misuse), each on two
# problems: an odd shape as a sub-matrix view (67x45x33, every pointer one element past an
# aligned address: the element-by-element path) and an aligned one (67x72x40: the 16-byte path).
# Both have edge tiles in M, N and K. Run after scripts/test.sh or scripts/bench.sh (it uses
# their build). Exit 1 if any run reports an error.
#   usage: scripts/sanitize.sh [LOG]     default log: results/<gpu>/checks/sanitizer.log
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
. scripts/lib.sh
require_gpu check
command -v compute-sanitizer >/dev/null || {
  echo "$0: compute-sanitizer is not installed (it comes with the CUDA toolkit)." >&2
  exit 1
}
log=${1:-$(results_dir)/checks/sanitizer.log}
mkdir -p "$(dirname "$log")"

jobs=()
for c in [0-9][0-9]_*/; do
  c=${c%/}
  [ -x "$build/$c/$c" ] || { echo "$0: $build/$c/$c is not built; run scripts/test.sh first." >&2; exit 1; }
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 67 --n 45 --k 33 --offset 1"
           "$tool $build/$c/$c --m 67 --n 72 --k 40")
  done
done

# One job: its command, the sanitizer's summary, which path each variant took, and its exit code.
run_one() {
  local tool=$1; shift
  local out rc=0
  out=$(compute-sanitizer --tool "$tool" --error-exitcode 3 "$@" --variant all --reps 1 --warmup 0 \
        --no-cublas 2>&1) || rc=$?
  printf '== compute-sanitizer --tool %s %s --variant all --reps 1 --warmup 0 --no-cublas\n' "$tool" "$*"
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Invalid|Race|Barrier|(16-byte|element) +(PASS|FAIL)' <<<"$out" |
    awk '{print "   " $0}' | sed -E 's/^ +(ERROR|RACECHECK|=)/\1/'
  echo "rc=$rc"
  return $rc
}
export -f run_one

# Four at a time: the problems are tiny, the sanitizer's start-up is what takes the time.
status=0
printf '%s\n' "${jobs[@]}" | xargs -P 4 -I{} bash -c 'run_one {}' > "$log.tmp" || status=1
# Keep the chapters in order in the log whatever order the jobs finished in.
awk '/^== /{key=$5" "$4" "$0} {print key "\t" $0}' "$log.tmp" | sort -s -t$'\t' -k1,1 | cut -f2- > "$log"
rm -f "$log.tmp"
errors=$(grep -c '^rc=[^0]' "$log" || true)
echo "$0: ${#jobs[@]} runs, $errors with errors; log in $log"
exit $status
