#!/usr/bin/env bash
# The lesson of a chapter: the colored diff of two chapters' kernel.cu, and its size as plain
# `diff` counts it (the lines only in one file or the other, the number the READMEs quote).
#   usage: scripts/diff.sh 06 07      (two-digit chapter numbers, or folder names)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: scripts/diff.sh NN MM   (e.g. scripts/diff.sh 06 07)" >&2; exit 2; }
dir() {
  local d=""
  if [[ $1 =~ ^[0-9][0-9]$ ]]; then
    d=$(ls -d "$1"_*/ 2>/dev/null | head -n 1)
  elif [[ $1 =~ ^[0-9][0-9]_ ]]; then
    d=${1%/}/
  fi
  [ -n "$d" ] && [ -f "$d/kernel.cu" ] || {
    echo "scripts/diff.sh: no chapter '$1': give its two-digit number (e.g. 05) or its folder name" >&2
    exit 2
  }
  echo "${d%/}"
}
a=$(dir "$1")
b=$(dir "$2")
changed=$(diff "$a/kernel.cu" "$b/kernel.cu" | grep -c '^[<>]' || true)
echo "$a/kernel.cu -> $b/kernel.cu: $changed changed lines (plain diff: lines only in one of them)"
git --no-pager diff --no-index --color=auto "$a/kernel.cu" "$b/kernel.cu" || true
