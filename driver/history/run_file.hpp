#pragma once
// A run file read whole for the history, through the one reader (runfile/rows.hpp): every row
// with every figure it has, the counters it has, and its identity (the hash of its bytes).
#include <filesystem>
#include <string>
#include <string_view>

#include "driver/runfile/rows.hpp"

namespace iobench::history {

using RunFileRows = runfile::RunFile;

// The columns the store keeps for every row (NOT NULL in its samples table) beyond the six every
// run file has (runfile::RunColumnNeed::kStored): files of every format `iobench run` ever wrote
// have them; GNU time's do not.
inline constexpr auto kStoredColumns = runfile::kColumnsNeeded<runfile::RunColumnNeed::kStored>;

// Parses a run file of any format `iobench run` has written (docs/formats.md "Run file"); the
// figures an older format lacks (the disturbance columns, the counters) stay empty and are
// stored as NULL. Throws iobench::Error (exit 2) naming `name`, the line and the column of the
// first problem, or a column of kStoredColumns that the file lacks.
RunFileRows parse_run_file(std::string_view text, const std::string& name);

// Reads and parses `path` (parse_run_file).
RunFileRows read_run_file(const std::filesystem::path& path);

}  // namespace iobench::history
