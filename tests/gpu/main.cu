// GPU test runner. Without a usable GPU it exits 77, which CTest reports as "skipped".
#define CATCH_CONFIG_RUNNER
#include "../catch_compat.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing |= std::strncmp(argv[i], "--list", 6) == 0;
  int count = 0;
  if (!listing && (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)) {
    std::printf("no CUDA-capable GPU found: GPU tests skipped\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
