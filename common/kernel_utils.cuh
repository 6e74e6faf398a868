// Device-side helpers that are not the lesson of any chapter: the BLAS epilogue, 16-byte vector
// accessors, and their element-by-element twins for shapes and pointers 16 bytes don't fit.
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

// The four floats p[0..3] of a row with n >= 1 elements left from p; those past its end read as
// zero. WIDE: one 16-byte load (the launcher has checked that p is 16-byte aligned and that a row
// holds a multiple of four, so all four are inside); otherwise one 4-byte load per element.
template <bool WIDE>
__device__ __forceinline__ float4 load4(const float* p, int n) {
  if constexpr (WIDE) return load_float4(p);
  return make_float4(p[0], n > 1 ? p[1] : 0.0f, n > 2 ? p[2] : 0.0f, n > 3 ? p[3] : 0.0f);
}

// 16 bytes of elements of type T (4 floats or 8 halves), held as four 32-bit words: the compiler
// then moves them word by word (as __half elements it moves 16 bits at a time, and waits for a
// load to finish before it can place its halves).
template <class T>
struct alignas(16) Vec16 {
  unsigned w[4];
};

// load4 for any element type: the 16 / sizeof(T) elements p[0..] of a row with n >= 1 elements
// left from p, those past its end zero. WIDE: one 16-byte load; otherwise one per element.
template <bool WIDE, class T>
__device__ __forceinline__ Vec16<T> load16(const T* p, int n) {
  Vec16<T> v;
  if constexpr (WIDE) {
    v = *reinterpret_cast<const Vec16<T>*>(p);
  } else {
    T e[16 / sizeof(T)];
#pragma unroll
    for (int i = 0; i < 16 / static_cast<int>(sizeof(T)); ++i)
      e[i] = i < n ? p[i] : static_cast<T>(0.0f);
    memcpy(&v, e, sizeof(v));
  }
  return v;
}

// For float: each element rounded to TF32 (10 of the 23 mantissa bits, to nearest), the value the
// tensor cores compute with, still stored as a float. Other element types pass unchanged.
template <class T>
__device__ __forceinline__ Vec16<T> round_tf32(Vec16<T> v) {
  if constexpr (sizeof(T) == 4)
#pragma unroll
    for (int e = 0; e < 4; ++e)
      asm("cvt.rna.tf32.f32 %0, %0;" : "+r"(v.w[e]));
  return v;
}

// c[0..3] = alpha * acc + beta * c[0..3] in a row with n >= 1 elements left from c; elements past
// its end are not touched. WIDE: 16-byte accesses, as load4.
template <bool WIDE>
__device__ __forceinline__ void store4(float* c, float4 acc, float alpha, float beta, int n) {
  if constexpr (WIDE) {
    store_float4(c, epilogue4(acc, alpha, beta, c));
  } else {
    c[0] = epilogue(acc.x, alpha, beta, c);
    if (n > 1) c[1] = epilogue(acc.y, alpha, beta, c + 1);
    if (n > 2) c[2] = epilogue(acc.z, alpha, beta, c + 2);
    if (n > 3) c[3] = epilogue(acc.w, alpha, beta, c + 3);
  }
}

// c[0..3] += alpha * acc in a row with n >= 1 elements left from c, as atomic adds: the blocks
// of a split K add into the same C.
__device__ __forceinline__ void add4(float* c, float4 acc, float alpha, int n) {
  atomicAdd(c, alpha * acc.x);
  if (n > 1) atomicAdd(c + 1, alpha * acc.y);
  if (n > 2) atomicAdd(c + 2, alpha * acc.z);
  if (n > 3) atomicAdd(c + 3, alpha * acc.w);
}

}  // namespace gemm
