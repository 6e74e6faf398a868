// Block rasterization, measured on 07_double_buffer's kernel, unchanged. The kernel places its
// block tile at (blockIdx.y * BM, blockIdx.x * BN): in launch order, a row of tiles after
// another across all of N. Walking groups of G rows of tiles column by column instead keeps the
// tiles computed close together in time on fewer bands of A and B, which L2 can then hold.
// What should move: DRAM bytes down (ncu dram__bytes_read); time only where DRAM is the limit.
//
// The experiment compiles 07's kernel.cu twice: once as it is, once with blockIdx replaced by
// the grouped order, so neither the chapter nor its diff carries it. scripts/bench.sh runs it
// (rasterization.csv, and ncu_rasterization.csv for the bytes); results/README.md has the table.
#include "variants.h"

#include "gemm_check.h"
#include "kernel_utils.cuh"
#include "split_k.cuh"

namespace row_major {
#include "../07_double_buffer/kernel.cu"
}  // namespace row_major

// Block (x, y) of the launch in grouped order: the linear block index walks GROUP rows of tiles
// one column at a time (the last group may have fewer rows).
template <int GROUP>
__device__ __forceinline__ uint3 grouped_block_index() {
  const unsigned id = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned per_group = GROUP * gridDim.x;
  const unsigned first_row = id / per_group * GROUP;
  const unsigned rows = min(GROUP, gridDim.y - first_row);
  const unsigned in_group = id % per_group;
  return make_uint3(in_group / rows, first_row + in_group % rows, blockIdx.z);
}

#define blockIdx grouped_block_index<GROUP>()
#define GROUP 8
namespace grouped_8 {
#include "../07_double_buffer/kernel.cu"
}  // namespace grouped_8
#undef GROUP
#define GROUP 16
namespace grouped_16 {
#include "../07_double_buffer/kernel.cu"
}  // namespace grouped_16
#undef GROUP
#undef blockIdx

// 07's default kernel, as 07's driver lists it.
#define default_tile()                                                                        \
  gemm::thread_tile_variant<128, 128, 8, 8, 8>(gemm_launch<128, 128, 8, 8, 8>,                \
                                               gemm_kernel<128, 128, 8, 8, 8, true, 1, true>, \
                                               gemm_kernel<128, 128, 8, 8, 8, true, 1, false>)

int main(int argc, char** argv) {
  using namespace gemm;
  std::vector<Variant> variants;
  {
    using namespace row_major::ch07;
    variants.push_back(default_tile());
    variants.back().name = "rows_" + variants.back().name;
  }
  {
    using namespace grouped_8::ch07;
    variants.push_back(default_tile());
    variants.back().name = "group8_" + variants.back().name;
  }
  {
    using namespace grouped_16::ch07;
    variants.push_back(default_tile());
    variants.back().name = "group16_" + variants.back().name;
  }
  return run_chapter(argc, argv, "rasterization", variants);
}
