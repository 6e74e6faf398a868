// gemm_bench: every chapter in one process, for scripts/bench.sh. Each chapter's main.cu is
// included with its main() left out; what runs, in which order, is gemm::run_all's plan.
#define GEMM_ALL_CHAPTERS
#include "../01_naive/main.cu"
#include "../02_smem_tiling/main.cu"
#include "../03_register_tiling/main.cu"
#include "../04_transposed_A/main.cu"
#include "../05_swizzle/main.cu"
#include "../06_coalesced_store/main.cu"
#include "../07_double_buffer/main.cu"
#include "../08_wmma_tensorcore/main.cu"

int main(int argc, char** argv) {
  return gemm::run_all(argc, argv,
                       {{"01_naive", ch01::variants()},
                        {"02_smem_tiling", ch02::variants()},
                        {"03_register_tiling", ch03::variants()},
                        {"04_transposed_A", ch04::variants()},
                        {"05_swizzle", ch05::variants()},
                        {"06_coalesced_store", ch06::variants()},
                        {"07_double_buffer", ch07::variants()},
                        {"08_wmma_tensorcore", ch08::variants(), 2}});
}
