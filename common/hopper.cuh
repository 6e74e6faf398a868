// Host plumbing of the Hopper chapters (11 on), none of it their lesson: whether this GPU runs
// this program's sm_90a code, tensor maps (the TMA unit's description of a matrix), aligned
// copies of A or B where TMA cannot read them, and cluster launches. Everything is static, so
// that each chapter's kernel.cu carries its own copy (its object links alone, and the probe asks
// about the sm_90a code of the file that includes this one).
#pragma once

#include "gemm_check.h"

#include <cuda_bf16.h>
#include <cuda.h>  // CUtensorMap and the encode function's type only: nothing links libcuda

#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace gemm {

// Whether this file was compiled with sm_90a code: nvcc defines __CUDA_ARCH_FEAT_SM90_ALL only
// when it compiles for sm_90a (wgmma and setmaxnreg exist only there).
static __global__ void has_sm90a_kernel(int* yes) {
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
  *yes = 1;
#else
  *yes = 0;
#endif
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                 const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                 const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

struct Hopper {
  std::string why;  // empty when this GPU runs this program's sm_90a kernels; else one sentence
  EncodeTiled encode = nullptr;  // the driver's cuTensorMapEncodeTiled, through the runtime
  int sms = 0;
};

// What the current GPU offers, asked once per device under a lock (several host threads may make
// their first calls at once). The first call on a device launches a probe and waits for it: a
// synchronization, so not inside a stream capture. A GPU that cannot run the chapter is refused
// with the sentence (cudaErrorInvalidValue).
static inline cudaError_t hopper(const Hopper*& gpu, LaunchInfo* info) {
  constexpr int MAX_DEVICES = 64;
  static std::mutex lock;
  static Hopper cache[MAX_DEVICES];
  static bool asked[MAX_DEVICES] = {};
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device)) return err;
  if (device < 0 || device >= MAX_DEVICES)
    return reject(info, "device ordinals below %d only; this is device %d", MAX_DEVICES, device);
  std::lock_guard<std::mutex> guard(lock);
  Hopper& h = cache[device];
  if (!asked[device]) {
    cudaDeviceProp prop{};
    if (cudaError_t err = cudaGetDeviceProperties(&prop, device)) return err;
    h.sms = prop.multiProcessorCount;
    int yes = 0;
    if (prop.major == 9 && prop.minor == 0) {
      int* flag = nullptr;
      if (cudaError_t err = cudaMalloc(&flag, sizeof(int))) return err;
      has_sm90a_kernel<<<1, 1>>>(flag);
      cudaError_t err = cudaGetLastError();
      if (!err) err = cudaMemcpy(&yes, flag, sizeof(int), cudaMemcpyDeviceToHost);
      const cudaError_t freed = cudaFree(flag);
      if (err || freed) return err ? err : freed;
    }
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (prop.major != 9 || prop.minor != 0)
      h.why = "wgmma and TMA kernels need a Hopper GPU (compute capability 9.0); this is " +
              std::string(prop.name) + " (" + std::to_string(prop.major) + "." +
              std::to_string(prop.minor) + ")";
    else if (!yes)
      h.why =
          "this program was built without sm_90a code: configure with 90 among "
          "CMAKE_CUDA_ARCHITECTURES";
    else if (cudaError_t err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn,
                                                                12000, cudaEnableDefault, &found))
      return err;
    else if (found != cudaDriverEntryPointSuccess || !fn)
      h.why = "the CUDA driver has no cuTensorMapEncodeTiled (it needs driver 12.0 or newer)";
    h.encode = reinterpret_cast<EncodeTiled>(fn);
    asked[device] = true;
  }
  gpu = &h;
  return h.why.empty() ? cudaSuccess : reject(info, "%s", h.why.c_str());
}

// TMA reads rows of a multiple of 16 bytes, each starting on a 16-byte boundary.
template <class T>
bool tma_can_read(const T* base, int cols) {
  return aligned_16(base) && cols * sizeof(T) % 16 == 0;
}

// What goes into a tensor map: a call with the same key gets the same map from the driver.
struct MapKey {
  EncodeTiled encode = nullptr;
  const void* base = nullptr;
  int type = 0, rows = 0, cols = 0, box_rows = 0;
  long long pitch = 0;
  bool operator==(const MapKey& o) const {
    return encode == o.encode && base == o.base && type == o.type && rows == o.rows &&
           cols == o.cols && box_rows == o.box_rows && pitch == o.pitch;
  }
};

// A row-major rows x cols matrix whose rows lie `pitch` elements apart (T: __half or
// __nv_bfloat16 for A and B, float for C), in boxes of 128 bytes (the swizzle span: 64 16-bit
// elements, 32 floats) x box_rows rows, 128-byte swizzled in shared memory. Reads outside the
// matrix fill zeros; writes outside it are dropped. False where the driver refuses it.
// A map holds only the address, sizes and box, so the last MAP_CACHE maps this host thread
// encoded are kept and a call that repeats a matrix (a model's layers call with the same buffers
// again and again) copies its map instead of asking the driver. Each thread has its own: no lock,
// and first calls from several threads at once do not meet here.
constexpr int MAP_CACHE = 8;
template <class T>
bool tensor_map(EncodeTiled encode, CUtensorMap& map, const T* base, int rows, int cols,
                long long pitch, int box_rows) {
  static thread_local MapKey keys[MAP_CACHE];
  static thread_local CUtensorMap maps[MAP_CACHE];
  static thread_local int next = 0;
  constexpr CUtensorMapDataType type = std::is_same_v<T, __nv_bfloat16>
                                           ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                       : sizeof(T) == 2 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                        : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  const MapKey key{encode, base, int(type), rows, cols, box_rows, pitch};
  for (int i = 0; i < MAP_CACHE; ++i)
    if (keys[i] == key) {
      map = maps[i];
      return true;
    }
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t stride[1] = {cuuint64_t(pitch) * sizeof(T)};
  const cuuint32_t box[2] = {128 / sizeof(T), cuuint32_t(box_rows)};
  const cuuint32_t step[2] = {1, 1};
  if (encode(&map, type, 2, const_cast<T*>(base), dims, stride, box, step,
             CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return false;
  keys[next] = key, maps[next] = map;
  next = (next + 1) % MAP_CACHE;
  return true;
}

// What copies an operand's rows into scratch (dst rows of `pitch` elements, a multiple of 16
// bytes), for a chapter that brings its own copy; none: cudaMemcpy2DAsync.
template <class T>
using Stage = cudaError_t (*)(T* dst, long long pitch, const T* src, int rows, int cols,
                              cudaStream_t stream);

// An operand (A or B) as TMA reads it: the matrix itself where TMA can read it, else a copy in
// scratch taken on `stream` (cudaMallocAsync), its rows padded to 16 bytes. The copy, the kernel
// that reads it and release() are ordered on the stream, so the memory goes back after the
// kernel. A failed allocation returns cudaErrorMemoryAllocation with a sentence, nothing launched.
template <class T>
struct TmaOperand {
  const T* ptr = nullptr;
  long long pitch = 0;  // elements between rows
  T* scratch = nullptr;

  cudaError_t prepare(const char* name, const T* src, int rows, int cols, cudaStream_t stream,
                      LaunchInfo* info, Stage<T> stage = nullptr) {
    ptr = src;
    pitch = cols;
    if (tma_can_read(src, cols)) return cudaSuccess;
    constexpr int per_16 = 16 / sizeof(T);
    pitch = (cols + per_16 - 1) / per_16 * per_16;
    const std::size_t bytes = std::size_t(rows) * pitch * sizeof(T);
    if (cudaMallocAsync(&scratch, bytes, stream) != cudaSuccess) {
      cudaGetLastError();  // not sticky; clear it for the caller
      scratch = nullptr;
      reject(info, "no GPU memory for the aligned copy of %s (%.1f MB)", name, bytes / 1e6);
      return cudaErrorMemoryAllocation;
    }
    ptr = scratch;
    const cudaError_t err =
        stage ? stage(scratch, pitch, src, rows, cols, stream)
        // One row needs no pitch (and may be longer than a 2D copy's widest pitch).
        : rows == 1
            ? cudaMemcpyAsync(scratch, src, cols * sizeof(T), cudaMemcpyDeviceToDevice, stream)
            : cudaMemcpy2DAsync(scratch, pitch * sizeof(T), src, cols * sizeof(T), cols * sizeof(T),
                                rows, cudaMemcpyDeviceToDevice, stream);
    if (err) release(stream);
    return err;
  }
  cudaError_t release(cudaStream_t stream) {
    T* p = scratch;
    scratch = nullptr;
    return p ? cudaFreeAsync(p, stream) : cudaSuccess;
  }
};

// A (M x K) and B (K x N) as tensor maps, in boxes of box_m rows of A and box_k rows of B, each
// read from an aligned copy where TMA cannot read the matrix itself (TmaOperand).
template <class T>
struct TmaInputs {
  CUtensorMap a, b;
  TmaOperand<T> a_op, b_op;

  cudaError_t prepare(const Hopper& gpu, const T* A, const T* B, int M, int N, int K, int box_m,
                      int box_k, cudaStream_t stream, LaunchInfo* info, Stage<T> stage = nullptr) {
    cudaError_t err = a_op.prepare("A", A, M, K, stream, info, stage);
    if (!err) err = b_op.prepare("B", B, K, N, stream, info, stage);
    if (!err && info) {
      const bool a_copy = a_op.scratch, b_copy = b_op.scratch;
      info->access = a_copy || b_copy ? "tma staged" : "tma";
      if (a_copy || b_copy)
        info->note = std::string(a_copy && b_copy ? "A and B"
                                 : a_copy         ? "A"
                                                  : "B") +
                     " copied into aligned scratch first: TMA reads rows of a multiple of 16 "
                     "bytes that start 16-byte aligned";
    }
    if (!err && (!tensor_map(gpu.encode, a, a_op.ptr, M, K, a_op.pitch, box_m) ||
                 !tensor_map(gpu.encode, b, b_op.ptr, K, N, b_op.pitch, box_k)))
      err = reject(info, "cuTensorMapEncodeTiled refused M=%d N=%d K=%d", M, N, K);
    return err ? release(stream, err) : cudaSuccess;
  }
  // Gives the copies back (after the kernel that reads them, on the stream); returns err, or the
  // release's error.
  cudaError_t release(cudaStream_t stream, cudaError_t err) {
    const cudaError_t freed_a = a_op.release(stream), freed_b = b_op.release(stream);
    return err ? err : freed_a ? freed_a : freed_b;
  }
};

// C (M x N floats) as a tensor map for stores of box_rows x 32 columns, where TMA can write it.
static inline bool c_tensor_map(const Hopper& gpu, CUtensorMap& map, float* C, int M, int N,
                                int box_rows) {
  return tma_can_read(C, N) && tensor_map(gpu.encode, map, C, M, N, N, box_rows);
}

// How many clusters of `cluster` blocks of this kernel fit on the GPU at once, asked once per
// kernel and device under a lock. The first ask also raises the kernel's dynamic shared-memory
// limit, which a launch with more than 48 KB needs.
template <class Kernel>
cudaError_t clusters_that_fit(Kernel kernel, int cluster, int threads, std::size_t smem, int sms,
                              int& clusters) {
  static std::mutex lock;
  static std::map<std::pair<const void*, int>, int> cache;
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device)) return err;
  std::lock_guard<std::mutex> guard(lock);
  int& fit = cache[{reinterpret_cast<const void*>(kernel), device}];
  if (fit == 0) {
    if (cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(smem)))
      return err;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(cluster * sms);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem;
    config.attrs = &attr;
    config.numAttrs = 1;
    if (cudaError_t err = cudaOccupancyMaxActiveClusters(&fit, kernel, &config)) return err;
    if (fit == 0) return cudaErrorLaunchOutOfResources;
  }
  clusters = fit;
  return cudaSuccess;
}

// Launches `blocks` blocks in clusters of `cluster` along x.
template <class... Params, class... Args>
cudaError_t launch_clusters(void (*kernel)(Params...), unsigned blocks, int cluster, int threads,
                            std::size_t smem, cudaStream_t stream, Args... args) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

}  // namespace gemm
