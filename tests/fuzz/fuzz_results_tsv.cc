// Fuzzes the results reader (perf-results.tsv and GNU time files) and parse_seconds. The input is
// written to a temp file and read with read_runs; iobench::Error is the documented rejection.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "driver/runfile/results_reader.hpp"

namespace {

std::filesystem::path temp_file() {
  static const std::filesystem::path path = [] {
    char tmpl[] = "/tmp/iobench-fuzz-tsv-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    if (fd < 0) std::abort();
    ::close(fd);
    return std::filesystem::path(tmpl);
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    // The first line (up to 40 bytes) also goes through parse_seconds alone.
    const std::string head = text.substr(0, std::min<std::size_t>(text.find('\n'), 40));
    double seconds = 0;
    if (iobench::results::parse_seconds(head, seconds) && !(seconds >= 0)) std::abort();
  }
  const auto path = temp_file();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  iobench::results::ReadOptions options;
  // Alternate between default grouping and an explicit one, chosen by the input's length.
  if (size % 2 == 1) options.group_by = {"test", "sink"};
  if (size % 3 == 1) options.allow_missing_columns = true;
  try {
    const auto runs = iobench::results::read_runs({path}, options);
    std::size_t total = 0;
    for (const auto& group : runs.groups) {
      for (auto n : group.rows) total += n;
      if (group.key.size() != runs.group_by.size()) std::abort();
    }
    if (total != runs.rows) std::abort();  // every data row is counted in exactly one group
  } catch (const iobench::Error&) {
  }
  return 0;
}
