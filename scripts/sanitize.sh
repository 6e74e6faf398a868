#!/usr/bin/env bash
# compute-sanitizer over every chapter's variants: memcheck (out-of-bounds and misaligned
# accesses), racecheck (shared-memory hazards) and synccheck (barrier misuse), each on two
# problems: an odd shape with every pointer one element past an aligned address (67x45x261: the
# element-by-element path; 12-28 copy A and B into aligned scratch first) and an aligned one
# (67x72x264: the 16-byte path from 03 on, TMA in 12-28). Both have edge tiles in M, N and K,
# enough k-tiles for the rings of stages of 10-28 to wrap around, and K large enough for 07-16
# to split it between two blocks. Run after scripts/test.sh or scripts/bench.sh (it uses their
# build). Exit 1 if any run reports an error. SANITIZE_JOBS: runs at once (default: half the cores,
# at least 4). SANITIZE_PART=i/n: only every n-th run from the i-th (on the H200 all of them took
# more than eight and a half minutes with 14 at once). SANITIZE_CHAPTERS="24 25": only the runs
# of those chapters.
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

# Whether chapter $1's runs are wanted (SANITIZE_CHAPTERS: only those chapters').
wanted() { [ -z "${SANITIZE_CHAPTERS:-}" ] || [[ " $SANITIZE_CHAPTERS " == *" ${1%%_*} "* ]]; }
jobs=()
for c in [0-9][0-9]_*/; do
  c=${c%/}
  wanted "$c" || continue
  [ -x "$build/$c/$c" ] || { echo "$0: $build/$c/$c is not built; run scripts/test.sh first." >&2; exit 1; }
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 67 --n 45 --k 261 --offset 1 --variant all"
           "$tool $build/$c/$c --m 67 --n 72 --k 264 --variant all")
  done
done
# The persistent chapters' defaults where K is not split and the blocks loop: 81 (cluster) tiles,
# more than fit at once, of 6 k-tiles each, so the ring wraps within a tile and across tiles.
# 21-25 also with every pointer one element off: C's rows from the buffers, the deferred
# chunks among them going out during the next tile's k-loop; 22 also with its 192 x 192 tile, on
# 2200 x 4000 (126 cluster tiles: 192 x 192 makes 66 at 2200 x 2064, one per cluster); 23 and 24
# also with beta 0.5: every tile added into the scaled C by the TMA unit; 24 also with its tiles
# of 128 x 64 side by side (306 cluster tiles).
for c in 14_persistent 15_clusters 16_tma_store 17_stream_k 18_deferred_store 19_tile_choice \
         20_skinny 21_staging 22_tall_tiles 23_beta_adds 24_side_by_side; do
  [ -x "$build/$c/$c" ] && wanted "$c" || continue
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328")
    [ "${c%%_*}" -ge 21 ] && jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328 --offset 1")
    [ "$c" = 22_tall_tiles ] && jobs+=("$tool $build/$c/$c --m 2200 --n 4000 --k 328 --variant fp16_192x192x64_s4")
    [ "${c%%_*}" -ge 23 ] && jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328 --beta 0.5")
    [ "$c" = 24_side_by_side ] && jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328 --offset 1 --variant fp16_128x64x64_s8_side")
  done
done
# 17's to 24's stream-K: 9 tiles of 32 k-tiles shared out among 36 clusters, 4 pieces a tile,
# added into C in turn by the TMA unit (beta 0) or with atomics (beta 0.5); in 18 and 19 the piece
# that ends a tile leaves its last chunks to the cluster's next piece (19: every width, --variant
# all; its rule takes 64 columns here, shared out as well; 24: its tiles side by side too; 22: its
# 192 x 192 tile as well). 21-25 also with every pointer one element off: copied operands, and
# C's rows written from the buffers, where pieces add with atomics.
for c in 17_stream_k 18_deferred_store 19_tile_choice 20_skinny 21_staging 22_tall_tiles \
         23_beta_adds 24_side_by_side; do
  [ -x "$build/$c/$c" ] && wanted "$c" || continue
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 600 --n 600 --k 2048 --variant all"
           "$tool $build/$c/$c --m 600 --n 600 --k 2048 --beta 0.5")
    [ "${c%%_*}" -ge 21 ] && jobs+=("$tool $build/$c/$c --m 600 --n 600 --k 2048 --offset 1 --variant all")
    [ "$c" = 22_tall_tiles ] && jobs+=("$tool $build/$c/$c --m 600 --n 600 --k 2048 --beta 0.5 --variant fp16_192x192x64_s4")
  done
done
# 20's C^T (21's to 25's too): 17 tiles of 33 k-tiles cut in two along K (pieces of 16 and 17
# k-tiles, some tiles in three), added into C with atomics, transposed, at every width (24: side
# by side and stacked; and 100 rows of C, which 24's rule puts side by side; 25: its tiles of 64
# rows at every width, 65 tiles cut in two, and at 100 rows 130 whole ones; C's own tiles run 24's
# kernels, sanitized above).
for c in 20_skinny 21_staging 22_tall_tiles 23_beta_adds 24_side_by_side 25_short_tiles; do
  [ -x "$build/$c/$c" ] && wanted "$c" || continue
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 16 --n 4104 --k 2056 --variant all"
           "$tool $build/$c/$c --m 33 --n 4104 --k 2056 --beta 0.5")
    [ "${c%%_*}" -ge 24 ] && jobs+=("$tool $build/$c/$c --m 100 --n 4104 --k 2056 --beta 0.5")
  done
done
# 26's clusters of four, every tile (--variant all): 2200 x 2064 x 328, whose blocks loop over
# their tiles, and 600 x 600 x 2048, whose tiles are shared out among clusters of four (the
# rule's 128 x 256 also with beta 0.5 and with every pointer one element off).
c=26_clusters_of_four
if [ -x "$build/$c/$c" ] && wanted "$c"; then
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328 --variant all"
           "$tool $build/$c/$c --m 600 --n 600 --k 2048 --variant all"
           "$tool $build/$c/$c --m 600 --n 600 --k 2048 --beta 0.5 --variant fp16_128x256x64_s4_c4"
           "$tool $build/$c/$c --m 2200 --n 2064 --k 328 --offset 1 --variant fp16_128x256x64_s4_c4")
  done
fi
# 27's 128 x 64 tiles alone and from the registers (--variant all): 2200 x 2064 x 328, whose blocks
# loop over their tiles, 600 x 600 x 2048 and 256 x 256 x 8192, whose tiles are shared out (pieces
# added with atomics in turn), 1024^3, one round (the rule's own kernel there; with beta 0.5 and
# with every pointer one element off as well).
c=27_one_round
if [ -x "$build/$c/$c" ] && wanted "$c"; then
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 2200 --n 2064 --k 328 --variant all"
           "$tool $build/$c/$c --m 600 --n 600 --k 2048 --variant all"
           "$tool $build/$c/$c --m 256 --n 256 --k 8192 --beta 0.5 --variant all"
           "$tool $build/$c/$c --size 1024 --variant all"
           "$tool $build/$c/$c --size 1024 --beta 0.5 --offset 1")
  done
fi

# 28's C^T in tiles of 64 x 8 (and 16-64: --variant all): 16 x 4104 x 2056, 130 whole tiles of
# 64 x 8 where 64 x 16 makes 65 cut in two; 16 x 600 x 2048 with beta 0.5, 20 tiles of 64 x 8 cut
# in two (the rule's choice); 13 x 1000 x 777 with every pointer one element off (A and B copied,
# C element by element).
c=28_eight_columns
if [ -x "$build/$c/$c" ] && wanted "$c"; then
  for tool in memcheck racecheck synccheck; do
    jobs+=("$tool $build/$c/$c --m 16 --n 4104 --k 2056 --variant all"
           "$tool $build/$c/$c --m 16 --n 600 --k 2048 --beta 0.5 --variant all"
           "$tool $build/$c/$c --m 13 --n 1000 --k 777 --offset 1 --variant all")
  done
fi

# One job: its command, the sanitizer's summary, which path each variant took, and its exit code,
# written to its own file (SANITIZE_JOBS at a time; the log keeps their order).
run_one() {
  local n=$1 tool=$2; shift 2
  local out rc=0
  out=$(compute-sanitizer --tool "$tool" --error-exitcode 3 "$@" --reps 1 --warmup 0 \
        --no-cublas 2>&1) || rc=$?
  {
    printf '== compute-sanitizer --tool %s %s --reps 1 --warmup 0 --no-cublas\n' "$tool" "$*"
    grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Invalid|Race|Barrier|(16-byte|element|tma|tma staged) +(PASS|FAIL)|^note' <<<"$out" |
      sed -E 's/^([^=])/   \1/'
    echo "rc=$rc"
  } > "$tmp/$n.log"
  return $rc
}
export -f run_one
tmp=$(mktemp -d)
export tmp
trap 'rm -rf "$tmp"' EXIT

# The problems are tiny; the sanitizer's start-up is what takes the time.
par=${SANITIZE_JOBS:-$(( $(nproc) / 2 > 4 ? $(nproc) / 2 : 4 ))}
part=${SANITIZE_PART:-1/1}
first=$(( ${part%/*} - 1 )) every=${part#*/}
status=0
for i in "${!jobs[@]}"; do
  if [ $(( i % every )) -eq "$first" ]; then printf '%03d %s\n' "$i" "${jobs[$i]}"; fi
done |
  xargs -P "$par" -I{} bash -c 'run_one {}' || status=1
cat "$tmp"/*.log > "$log"
errors=$(grep -c '^rc=[^0]' "$log" || true)
echo "$0: $(grep -c '^rc=' "$log") of ${#jobs[@]} runs (part $part), $errors with errors; log in $log"
exit $status
