// Split K for a C of few tiles, shared by the chapters from 07 on: the rule that decides how
// many blocks share each tile's K, and the scaling of C by beta that must come first because
// those blocks add their sums into C. Not the lesson of any chapter. Everything here is static:
// each chapter's kernel.cu carries its own copy, so that its object links alone.
#pragma once

#include "gemm_check.h"

namespace gemm {

// C = beta * C (beta == 0: C is not read).
static __global__ void scale_kernel(long long count, float beta, float* C) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) C[i] = beta == 0.0f ? 0.0f : beta * C[i];
}

static inline cudaError_t scale_c(long long count, float beta, float* C, cudaStream_t stream) {
  if (beta == 1.0f || count == 0) return cudaSuccess;
  scale_kernel<<<static_cast<unsigned>((count + 255) / 256), 256, 0, stream>>>(count, beta, C);
  return cudaGetLastError();
}

struct SplitK {
  int splits = 1;   // blocks per tile of C along K: gridDim.z, or 11-16's work units per tile
  int k_chunk = 0;  // values of k per block: a multiple of BK, so that every chunk but the last
                    // starts a row of A on a 16-byte boundary
};

// The split for BM x BN tiles (the rule: gemm::k_splits, gemm_check.h) and k-tiles of BK when
// blocks_per_sm blocks fit on an SM at once (0: never split). A split C is first scaled by beta on
// `stream`: the blocks then add into it.
static inline cudaError_t split_k(int M, int N, int K, int BM, int BN, int BK, int blocks_per_sm,
                                  float beta, float* C, cudaStream_t stream, SplitK& plan,
                                  LaunchInfo* info) {
  plan.splits = 1;
  if (blocks_per_sm > 0) {
    int sms = 0;
    if (cudaError_t err = sm_count(sms)) return err;
    const long long tiles = 1LL * ceil_div(M, BM) * ceil_div(N, BN);
    plan.splits = k_splits(tiles, K, 1LL * sms * blocks_per_sm);
  }
  plan.k_chunk = ceil_div(ceil_div(K, plan.splits), BK) * BK;
  if (plan.splits > 1) {
    plan.splits = ceil_div(K, plan.k_chunk);
    if (cudaError_t err = scale_c(1LL * M * N, beta, C, stream)) return err;
  }
  if (info) info->k_splits = plan.splits;
  return cudaSuccess;
}

}  // namespace gemm
