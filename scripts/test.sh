#!/usr/bin/env bash
# Configures, builds every chapter and the tests, and runs CTest. Without a GPU the GPU tests are
# reported as skipped. Installs Catch2 when it is missing and we may (root on Debian/Ubuntu).
#   BUILD_DIR=build   where to build        CUDA_ARCHS=90   architectures (default: auto)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}

have_catch2() {
  for prefix in /usr /usr/local /opt/homebrew ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }}; do
    for dir in lib lib64 share lib/x86_64-linux-gnu lib/aarch64-linux-gnu; do
      ls "$prefix/$dir/cmake/Catch2/Catch2Config.cmake" >/dev/null 2>&1 && return 0
    done
  done
  return 1
}
if ! have_catch2; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Catch2 not found: installing Debian's catch2 package"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq catch2 >/dev/null
  else
    echo "Catch2 not found: install it (Debian/Ubuntu: sudo apt-get install catch2;" \
         "others: Catch2 v2.13 or v3 from your package manager) and rerun." >&2
    exit 1
  fi
fi

# GEMM_BUILD_TESTS=ON: the folder may come from scripts/bench.sh, which leaves the tests out.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGEMM_BUILD_TESTS=ON \
      ${CUDA_ARCHS:+-DCMAKE_CUDA_ARCHITECTURES="$CUDA_ARCHS"}
cmake --build "$build" -j"$(nproc)"
# The GPU tests run side by side on the one GPU, a chapter to a process (tests/CMakeLists.txt).
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
