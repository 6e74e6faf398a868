#include "npy.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace gemm {
namespace {

std::size_t element_bytes(NpyType type) {
  switch (type) {
    case NpyType::F2:
      return 2;
    case NpyType::F4:
      return 4;
    case NpyType::F8:
      return 8;
  }
  return 0;
}

const char* descr(NpyType type) {
  switch (type) {
    case NpyType::F2:
      return "<f2";
    case NpyType::F4:
      return "<f4";
    case NpyType::F8:
      return "<f8";
  }
  return "?";
}

// Python's repr of a shape tuple, which is what numpy writes and parses: (), (5,), (2, 3).
std::string shape_repr(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string reason(int err) {
  return err ? std::strerror(err) : "write error";
}

// Opens for writing, runs `body` on the file and closes it; any failure becomes one sentence
// naming the path. A short write (disk full) only shows at fwrite or fclose, so both are checked.
template <class F>
void write_file(const std::string& path, F&& body) {
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create the file '" + path + "': " + reason(errno));
  errno = 0;
  const bool wrote = body(f);
  const int write_err = errno;
  errno = 0;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed)
    throw std::runtime_error("cannot write the file '" + path +
                             "': " + reason(wrote ? errno : write_err));
}

}  // namespace

std::string npy_header(NpyType type, const std::vector<std::size_t>& shape) {
  std::string dict = std::string("{'descr': '") + descr(type) +
                     "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  // 10 bytes of preamble (magic, version, length) + dict + padding + '\n' = a multiple of 64,
  // so the data starts aligned (numpy's own rule for version 1.0 files).
  const std::size_t preamble = 10, unpadded = preamble + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 0xffff)  // version 1.0 stores the length in 16 bits
    throw std::runtime_error("an npy header of " + std::to_string(dict.size()) +
                             " bytes does not fit format version 1.0");
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size() & 0xff);  // little-endian uint16, whatever the host
  h += static_cast<char>(dict.size() >> 8);
  return h + dict;
}

void write_npy(const std::string& path, NpyType type, const std::vector<std::size_t>& shape,
               const void* data) {
  // The payload is written as it sits in memory; the header promises little-endian.
  const std::uint16_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  if (first != 1)
    throw std::runtime_error("cannot write '" + path +
                             "': the npy writer needs a little-endian host");
  std::size_t count = 1;
  for (const std::size_t d : shape)
    count *= d;
  const std::string header = npy_header(type, shape);
  const std::size_t bytes = count * element_bytes(type);
  write_file(path, [&](std::FILE* f) {
    return std::fwrite(header.data(), 1, header.size(), f) == header.size() &&
           (bytes == 0 || std::fwrite(data, 1, bytes, f) == bytes);
  });
}

void write_text(const std::string& path, const std::string& text) {
  write_file(path, [&](std::FILE* f) {
    return text.empty() || std::fwrite(text.data(), 1, text.size(), f) == text.size();
  });
}

void create_folder(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  // create_directories reports no error when the path exists as a file; a file is no folder.
  if (!ec && !std::filesystem::is_directory(path, ec) && !ec)
    ec = std::make_error_code(std::errc::not_a_directory);
  if (ec) throw std::runtime_error("cannot create the folder '" + path + "': " + ec.message());
}

}  // namespace gemm
