// The one place that knows which Catch2 is installed: v3 (newer distributions, split headers and
// a compiled library) or v2.13 (Debian's package, one header).
#pragma once

#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#define GEMM_CATCH_VERSION 3
using Catch::Approx;  // v2 has it at global scope; v3 only as Catch::Approx
#else
#include <catch2/catch.hpp>
#define GEMM_CATCH_VERSION 2
#endif
