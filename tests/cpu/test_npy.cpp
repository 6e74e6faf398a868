#include "../catch_compat.h"

#include "npy.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// A fresh folder under the system's temp folder, removed with everything in it at scope exit.
struct TempFolder {
  fs::path path;
  TempFolder() {
    const auto tick = std::chrono::steady_clock::now().time_since_epoch().count();
    path = fs::temp_directory_path() / ("gemm_test_npy_" + std::to_string(tick));
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The header numpy expects: magic, version 1.0, little-endian uint16 length, padded dict.
std::string expected_header(const std::string& dict, std::size_t total) {
  const std::size_t len = total - 10;
  std::string h = std::string("\x93NUMPY\x01\x00", 8);
  h += static_cast<char>(len & 0xff);
  h += static_cast<char>(len >> 8);
  return h + dict + std::string(len - dict.size() - 1, ' ') + "\n";
}

std::string error_of(void (*f)(const std::string&), const std::string& path) {
  try {
    f(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("npy header is version 1.0 padded to 64 bytes", "[npy]") {
  const std::string h = gemm::npy_header(gemm::NpyType::F4, {2, 3});
  CHECK(h.size() == 128);  // 10 + 59-byte dict + newline = 70, padded to 128
  CHECK(h == expected_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 128));
  CHECK(h[8] == 0x76);  // 118 = 128 - 10, little-endian
  CHECK(h[9] == 0);
  // One dimension is written as Python writes a 1-tuple, "(5,)"; no dimension as "()".
  CHECK(gemm::npy_header(gemm::NpyType::F8, {5}) ==
        expected_header("{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }", 128));
  CHECK(gemm::npy_header(gemm::NpyType::F2, {}) ==
        expected_header("{'descr': '<f2', 'fortran_order': False, 'shape': (), }", 128));
  const std::vector<std::vector<std::size_t>> shapes = {
      {1}, {67, 33}, {4096, 4096}, {1, 2, 3, 4, 5}};
  for (const auto& shape : shapes)
    CHECK(gemm::npy_header(gemm::NpyType::F4, shape).size() % 64 == 0);
}

TEST_CASE("npy file holds the header then the raw little-endian elements", "[npy]") {
  TempFolder tmp;
  const std::vector<float> a = {1.0f, -2.5f, 0.1f, 3.0e-8f, -0.0f, 65504.0f};
  const std::string path = (tmp.path / "a.npy").string();
  gemm::write_npy(path, {2, 3}, a.data());
  const std::string bytes = read_bytes(path);
  REQUIRE(bytes.size() == 128 + a.size() * 4);
  CHECK(bytes.substr(0, 128) == gemm::npy_header(gemm::NpyType::F4, {2, 3}));
  CHECK(std::memcmp(bytes.data() + 128, a.data(), a.size() * 4) == 0);
  CHECK(bytes.substr(128, 4) == std::string("\x00\x00\x80\x3f", 4));  // 1.0f, little-endian

  const std::vector<double> d = {0.5, -1e300, 1.0 / 3.0};
  gemm::write_npy((tmp.path / "d.npy").string(), {3}, d.data());
  const std::string dbytes = read_bytes(tmp.path / "d.npy");
  REQUIRE(dbytes.size() == 128 + 24);
  CHECK(std::memcmp(dbytes.data() + 128, d.data(), 24) == 0);

  // Half precision goes in as its bits: 1.0 and -2.0 in IEEE binary16.
  const std::uint16_t h[] = {0x3c00, 0xc000};
  gemm::write_npy((tmp.path / "h.npy").string(), gemm::NpyType::F2, {1, 2}, h);
  const std::string hbytes = read_bytes(tmp.path / "h.npy");
  REQUIRE(hbytes.size() == 128 + 4);
  CHECK(hbytes.find("'descr': '<f2'") != std::string::npos);
  CHECK(hbytes.substr(128) == std::string("\x00\x3c\x00\xc0", 4));

  // An empty array is a header only.
  gemm::write_npy((tmp.path / "e.npy").string(), {0, 4}, static_cast<const float*>(nullptr));
  CHECK(read_bytes(tmp.path / "e.npy") == gemm::npy_header(gemm::NpyType::F4, {0, 4}));
}

TEST_CASE("npy writer and folder creation fail with one sentence naming the path", "[npy]") {
  TempFolder tmp;
  const std::string nested = (tmp.path / "x" / "y_64x64x64").string();
  gemm::create_folder(nested);
  CHECK(fs::is_directory(nested));
  gemm::create_folder(nested);  // already there: nothing to do

  const std::string missing = (tmp.path / "no_such_folder" / "A.npy").string();
  const float x = 1.0f;
  std::string err;
  try {
    gemm::write_npy(missing, {1}, &x);
  } catch (const std::runtime_error& e) {
    err = e.what();
  }
  CHECK(err == "cannot create the file '" + missing + "': No such file or directory");

  const std::string file = (tmp.path / "a_file").string();
  gemm::write_text(file, "not a folder");
  CHECK(read_bytes(file) == "not a folder");
  err = error_of(gemm::create_folder, file + "/sub");
  CHECK(err.rfind("cannot create the folder '" + file + "/sub': ", 0) == 0);
  CHECK(err.find('\n') == std::string::npos);
  err = error_of(gemm::create_folder, file);
  CHECK(err.rfind("cannot create the folder '" + file + "': ", 0) == 0);
}
