#pragma once
// How often a text occurs in another (overlapping occurrences count).
#include <cstddef>
#include <string>

namespace iobench::test {

inline std::size_t occurrences(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = haystack.find(needle); pos != std::string::npos;
       pos = haystack.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

}  // namespace iobench::test
