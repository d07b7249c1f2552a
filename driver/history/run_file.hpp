#pragma once
// A run file read whole for the history: every row with every figure (docs/formats.md "Run
// file"), the counters it has, and its identity (the hash of its bytes).
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/schema.hpp"

namespace iobench::history {

struct RunFileRows {
  std::vector<RunRow> rows;
  std::vector<Counter> counters;  // the counter columns it has, in schema order
  std::string hash;  // hex XXH3-128 of the file's bytes: adding it twice stores it once
};

// Parses a run file written by `iobench run`: every standard column must be there (a GNU time file
// has no meta file to go with it). Throws iobench::Error (exit 2) naming `name`, the line and the
// column of the first problem.
RunFileRows parse_run_file(std::string_view text, const std::string& name);

// Reads and parses `path` (parse_run_file).
RunFileRows read_run_file(const std::string& path);

}  // namespace iobench::history
