#include "driver/history/run_file.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace iobench::history {
namespace {

RunFileRows checked(RunFileRows file) {
  for (const std::string_view column : kStoredColumns) {
    if (file.columns.has(column)) continue;
    throw Error(
        fmt::format("{}: no column '{}': the history keeps it for every run, and only run files "
                    "written by iobench run have it (docs/formats.md \"Run file\")",
                    file.name, column));
  }
  return file;
}

}  // namespace

RunFileRows parse_run_file(std::string_view text, const std::string& name) {
  return checked(runfile::parse_run_file(text, name));
}

RunFileRows read_run_file(const std::filesystem::path& path) {
  return checked(runfile::read_run_file(path));
}

}  // namespace iobench::history
