# Shared by the scripts: stop without a GPU, and the results folder named after the GPU.
require_gpu() {  # $1: what the caller would have done
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$0: no CUDA-capable GPU found (nvidia-smi lists none), so there is nothing to $1." >&2
    exit 1
  fi
}
require_ncu() {  # the profiling scripts need Nsight Compute and a GPU
  if ! command -v ncu >/dev/null; then
    echo "$0: Nsight Compute (ncu) is not installed; no profiler metrics collected." >&2
    exit 1
  fi
  require_gpu profile
}
results_dir() {  # results/<gpu>, e.g. results/nvidia-h200
  local gpu
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 |
        tr '[:upper:]' '[:lower:]' | sed -E 's/[^a-z0-9]+/-/g; s/^-+|-+$//g')
  mkdir -p "results/$gpu"
  echo "results/$gpu"
}
