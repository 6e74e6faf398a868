// Device-side helpers that are not the lesson of any chapter: the BLAS epilogue and 16-byte
// vector accessors.
#pragma once

#include <cuda_runtime.h>

namespace gemm {

// C = alpha * acc + beta * C. BLAS semantics: with beta == 0, C is not read, so a NaN already
// in C cannot leak into the result.
__device__ __forceinline__ float epilogue(float acc, float alpha, float beta, const float* c) {
  return beta == 0.0f ? alpha * acc : alpha * acc + beta * *c;
}

__device__ __forceinline__ float4 epilogue4(float4 acc, float alpha, float beta, const float* c) {
  if (beta == 0.0f) return make_float4(alpha * acc.x, alpha * acc.y, alpha * acc.z, alpha * acc.w);
  const float4 old = *reinterpret_cast<const float4*>(c);
  return make_float4(alpha * acc.x + beta * old.x, alpha * acc.y + beta * old.y,
                     alpha * acc.z + beta * old.z, alpha * acc.w + beta * old.w);
}

// One 16-byte access; p must be 16-byte aligned.
__device__ __forceinline__ float4 load_float4(const float* p) {
  return *reinterpret_cast<const float4*>(p);
}
__device__ __forceinline__ void store_float4(float* p, float4 v) {
  *reinterpret_cast<float4*>(p) = v;
}

}  // namespace gemm
