#!/bin/sh
# The numpy cross-check of one driver run (CTest: numpy_cross_check):
#   dump_check.sh PYTHON CHECK_NPY DUMP_DIR DRIVER [FLAGS...]
# runs DRIVER FLAGS (which include --dump DUMP_DIR), then PYTHON CHECK_NPY DUMP_DIR. Exits 77,
# which CTest reports as skipped, when PYTHON has no numpy or the machine has no GPU: a cmake -P
# script cannot choose its exit code, hence a shell script beside expect.cmake.
set -u
if [ $# -lt 4 ] || [ -z "$3" ]; then
  echo "usage: dump_check.sh PYTHON CHECK_NPY DUMP_DIR DRIVER [FLAGS...]" >&2
  exit 2
fi
python=$1 check=$2 dump=$3
shift 3
if ! "$python" -c "import numpy" >/dev/null 2>&1; then
  echo "skipped: $python cannot import numpy (pip install numpy)"
  exit 77
fi
# A dump left by an earlier run must not stand in for this one.
rm -rf "$dump"
out=$("$@" 2>&1)
code=$?
printf '%s\n' "$out"
if [ $code -ne 0 ]; then
  case $out in
    *"no CUDA-capable GPU found"*)
      echo "skipped: no GPU"
      exit 77
      ;;
  esac
fi
# Also after a failed run: numpy's view of a failing kernel is what this test is for.
if [ -d "$dump" ]; then
  "$python" "$check" "$dump"
  checked=$?
else
  echo "the driver wrote no dump to $dump" >&2
  checked=1
fi
[ $code -ne 0 ] && exit $code
exit $checked
