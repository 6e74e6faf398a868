// A chapter's variants are instantiations of its kernel template. These helpers name each one and
// size its block from the template arguments, so a driver lists a configuration once, as the
// arguments themselves (GEMM_THREAD_TILE(128, 128, 8, 8, 8)), and nothing is typed twice.
#pragma once

#include "harness.h"

#include <cuda_fp16.h>

#include <string>
#include <type_traits>

namespace gemm {

// 01: one thread per output, BM x BN threads per block; named "BMxBN".
template <int BM, int BN, class Launch, class Kernel>
Variant block_variant(Launch launch, Kernel kernel) {
  const KernelInfo info = kernel_info(kernel, BM * BN);
  return Variant(std::to_string(BM) + "x" + std::to_string(BN), launch, info, info)
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BN));
}

// 02: TILE x TILE threads, one TILE x TILE tile of A and of B in shared memory; named "tileT".
template <int TILE, class Launch, class Kernel>
Variant square_tile_variant(Launch launch, Kernel kernel) {
  const KernelInfo info = kernel_info(kernel, TILE * TILE);
  return Variant("tile" + std::to_string(TILE), launch, info, info).with(GEMM_PARAM(TILE));
}

// 03-07: a BM x BN x BK block tile, TM x TN outputs per thread; named "BMxBNxBK_TMxTN". From 03
// on, each kernel comes in two: with 16-byte accesses (wide) and element by element (narrow).
// A suffix names what else sets the variant apart (07: "_frags2", "_nosplit").
template <int BM, int BN, int BK, int TM, int TN, class Launch, class Kernel>
Variant thread_tile_variant(Launch launch, Kernel wide, Kernel narrow, const char* suffix = "") {
  const std::string name = std::to_string(BM) + "x" + std::to_string(BN) + "x" +
                           std::to_string(BK) + "_" + std::to_string(TM) + "x" +
                           std::to_string(TN) + suffix;
  constexpr int threads = (BM / TM) * (BN / TN);
  return Variant(name, launch, kernel_info(wide, threads), kernel_info(narrow, threads))
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BN))
      .with(GEMM_PARAM(BK))
      .with(GEMM_PARAM(TM))
      .with(GEMM_PARAM(TN));
}

// 08-09: a BM x BN x BK block tile, WM x WN per warp, STAGES shared-memory stages (08: 2), float
// (TF32 math) or __half inputs; named "tf32_BMxBNxBK_wWMxWN_sSTAGES" (or "fp16_...") and a suffix
// for what else sets the variant apart.
template <class T, int BM, int BN, int BK, int WM, int WN, int STAGES, class Launch, class Kernel>
Variant warp_tile_variant(Launch launch, Kernel wide, Kernel narrow, std::size_t dynamic_smem,
                          const char* suffix = "") {
  constexpr bool tf32 = std::is_same_v<T, float>;
  const std::string name = std::string(tf32 ? "tf32_" : "fp16_") + std::to_string(BM) + "x" +
                           std::to_string(BN) + "x" + std::to_string(BK) + "_w" +
                           std::to_string(WM) + "x" + std::to_string(WN) + "_s" +
                           std::to_string(STAGES) + suffix;
  constexpr int threads = (BM / WM) * (BN / WN) * 32;
  const KernelInfo w = kernel_info(wide, threads, dynamic_smem);
  const KernelInfo n = kernel_info(narrow, threads, dynamic_smem);
  Variant v = [&] {
    if constexpr (tf32)
      return Variant(name, launch, w, n, Precision::TF32);
    else
      return Variant(name, launch, w, n);
  }();
  return std::move(v)
      .with("T", tf32 ? "float" : "__half")
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BN))
      .with(GEMM_PARAM(BK))
      .with(GEMM_PARAM(WM))
      .with(GEMM_PARAM(WN));
}

// 11 on: a BM x BN x BK block tile computed by warpgroups with wgmma, STAGES shared-memory
// stages, FP16 or BF16 inputs (as the launcher takes them); named "fp16_BMxBNxBK_sSTAGES" (or
// "bf16_...") and a suffix for what else sets the variant apart. wide and narrow: the kernels of
// the 16-byte and element paths (the same one where TMA reads every shape).
template <int BM, int BN, int BK, int STAGES, class Launch, class Kernel>
Variant warpgroup_variant(Launch launch, Kernel wide, Kernel narrow, int threads,
                          std::size_t dynamic_smem, const char* suffix = "") {
  const char* prefix = std::is_same_v<Launch, BgemmLaunch> ? "bf16_" : "fp16_";
  const std::string name = prefix + std::to_string(BM) + "x" + std::to_string(BN) + "x" +
                           std::to_string(BK) + "_s" + std::to_string(STAGES) + suffix;
  return Variant(name, launch, kernel_info(wide, threads, dynamic_smem),
                 kernel_info(narrow, threads, dynamic_smem))
      .with(GEMM_PARAM(BM))
      .with(GEMM_PARAM(BN))
      .with(GEMM_PARAM(BK))
      .with(GEMM_PARAM(STAGES));
}

}  // namespace gemm

// Used inside a chapter's namespace, where its launcher and kernel templates are in scope.
#define GEMM_BLOCK(...) \
  gemm::block_variant<__VA_ARGS__>(gemm_launch<__VA_ARGS__>, gemm_kernel<__VA_ARGS__>)
#define GEMM_SQUARE_TILE(...) \
  gemm::square_tile_variant<__VA_ARGS__>(gemm_launch<__VA_ARGS__>, gemm_kernel<__VA_ARGS__>)
#define GEMM_THREAD_TILE(...)                                                                      \
  gemm::thread_tile_variant<__VA_ARGS__>(gemm_launch<__VA_ARGS__>, gemm_kernel<__VA_ARGS__, true>, \
                                         gemm_kernel<__VA_ARGS__, false>)
