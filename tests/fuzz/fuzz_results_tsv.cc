// Fuzzes the run-file reader (perf-results.tsv, with or without counter columns, and GNU time
// files) and parse_seconds. The input is parsed from memory, grouped (parse_runs) and whole
// (parse_run_file); iobench::Error is the documented rejection.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/rows.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  {
    // The first line (up to 40 bytes) also goes through parse_seconds alone.
    const std::string_view head = text.substr(0, std::min<std::size_t>(text.find('\n'), 40));
    double seconds = 0;
    if (iobench::runfile::parse_seconds(head, seconds) && !(seconds >= 0)) std::abort();
  }
  iobench::runfile::ReadOptions options;
  // Alternate between default grouping and an explicit one, chosen by the input's length.
  if (size % 2 == 1) options.group_by = {"test", "sink"};
  if (size % 3 == 1) options.allow_missing_columns = true;
  try {
    const auto runs = iobench::runfile::parse_runs(text, "fuzz.tsv", options);
    std::size_t total = 0;
    for (const auto& group : runs.groups) {
      for (auto n : group.rows) total += n;
      if (group.key.size() != runs.group_by.size()) std::abort();
      // A counter's samples are those of the ok runs that counted it: never more than ok runs.
      for (const auto& samples : group.samples) {
        if (samples.size() > group.ok_count()) std::abort();
      }
    }
    if (total != runs.rows) std::abort();  // every data row is counted in exactly one group
  } catch (const iobench::Error&) {
  }
  try {
    // The one reader read whole (every column parsed), as history add reads a file.
    const auto file = iobench::runfile::parse_run_file(text, "fuzz.tsv");
    if (file.rows.size() != file.lines.size()) std::abort();
  } catch (const iobench::Error&) {
  }
  return 0;
}
