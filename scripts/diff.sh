#!/usr/bin/env bash
# The lesson of a chapter: the colored diff of two chapters' kernel.cu.
#   usage: scripts/diff.sh 06 07      (chapter numbers or folder names)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: scripts/diff.sh NN MM   (e.g. scripts/diff.sh 06 07)" >&2; exit 2; }
dir() {
  local d
  d=$(ls -d "$1"*/ 2>/dev/null | head -n 1)
  [ -n "$d" ] && [ -f "$d/kernel.cu" ] || { echo "scripts/diff.sh: no chapter '$1' with a kernel.cu" >&2; exit 2; }
  echo "${d%/}"
}
a=$(dir "$1")
b=$(dir "$2")
git --no-pager diff --no-index --color=auto --stat "$a/kernel.cu" "$b/kernel.cu" || true
git --no-pager diff --no-index --color=auto "$a/kernel.cu" "$b/kernel.cu" || true
