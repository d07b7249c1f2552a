#pragma once
// Helpers for the generator tests (tests/unit/gen/*_gtest.cc): generating into a
// iobench::test::TempDir and reading what was written.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "driver/gen/gen.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::gen::testing {

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const auto at = text.find(separator, start);
    if (at == std::string_view::npos) {
      parts.push_back(text.substr(start));
      return parts;
    }
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
}

// Lines of a text that ends with a newline (or is empty), without their newlines.
inline std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto at = text.find('\n', start);
    if (at == std::string_view::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  return lines;
}

inline std::string generate_to_string(const GenRequest& request, const iobench::test::TempDir& dir,
                                      std::string_view name = "out") {
  const auto path = dir / name;
  generate(request, path);
  return read_file(path);
}

inline GenRequest request(std::string kind, std::uint64_t size, std::uint64_t seed = 1,
                          nlohmann::json options = nlohmann::json::object()) {
  GenRequest r;
  r.kind = std::move(kind);
  r.size_bytes = size;
  r.seed = seed;
  r.options = std::move(options);
  return r;
}

}  // namespace iobench::gen::testing
