#pragma once
// What `iobench bench` says and writes once its runs are done (docs/bench.md): each command
// against the reference on the same input and sink, and the summary exported when asked.
#include <filesystem>
#include <iosfwd>
#include <string>

namespace iobench::report {

struct BenchExports {
  std::filesystem::path json;      // the summary as JSON; empty: none
  std::filesystem::path markdown;  // the summary and the comparisons as Markdown; empty: none
};

// Reads the run file back (grouped by test, input, sink), writes the comparisons with the
// reference test to `out` (after a blank line; nothing when there is none), then each export,
// atomically. Throws iobench::Error when the run file cannot be read or an export written.
void report_bench(const std::filesystem::path& runs_file, const std::string& reference,
                  const BenchExports& exports, std::ostream& out);

}  // namespace iobench::report
