// A minimal writer of numpy's .npy files (format version 1.0), so a run can hand its inputs,
// output and reference to numpy for an independent check (--dump, scripts/check_npy.py). Pure
// host code, tested on the CPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gemm {

// The element types the dumps need, as numpy's little-endian descriptors.
enum class NpyType {
  F2,  // '<f2': IEEE binary16, e.g. the bits of a __half
  F4,  // '<f4': float
  F8,  // '<f8': double
};

// The header of a row-major (C order) array of this type and shape: magic, version 1.0, the
// header length, then the dict padded with spaces and ended by '\n' to a multiple of 64 bytes.
std::string npy_header(NpyType type, const std::vector<std::size_t>& shape);

// Writes the header and the product(shape) elements at `data`, in host byte order (the header
// says little-endian; the writer refuses a big-endian host). Throws std::runtime_error with one
// sentence naming the path if the file cannot be written.
void write_npy(const std::string& path, NpyType type, const std::vector<std::size_t>& shape,
               const void* data);

inline void write_npy(const std::string& path, const std::vector<std::size_t>& shape,
                      const float* data) {
  write_npy(path, NpyType::F4, shape, data);
}
inline void write_npy(const std::string& path, const std::vector<std::size_t>& shape,
                      const double* data) {
  write_npy(path, NpyType::F8, shape, data);
}

// Writes `text` to a file, replacing it; the same one-sentence error as write_npy.
void write_text(const std::string& path, const std::string& text);

// Creates a folder and its parents (nothing if it exists); throws std::runtime_error with one
// sentence naming the path if it cannot.
void create_folder(const std::string& path);

}  // namespace gemm
