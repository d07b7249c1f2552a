#pragma once
// Writes run files: one row per run, the columns of driver/runfile/schema.hpp (docs/formats.md "Run
// file").
#include <filesystem>
#include <string>
#include <vector>

#include "common/fd.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::runfile {

// The header line for these counters (run_columns), tab-separated, with a trailing newline.
std::string run_tsv_header(const std::vector<Counter>& counters = {});
// One row, tab-separated, with a trailing newline, with the cells of these counters (in schema
// order) after the standard ones. Fields never contain tabs or newlines (they become spaces).
std::string format_run_row(const RunRow& row, const std::vector<Counter>& counters = {});

// Appends rows to a new results file. The file is created with O_EXCL (never overwrites, never
// follows a planted symlink) and each row is written with one write(2) as its run ends, so a
// crash or an interrupt leaves every finished row and a well-formed file.
class RunTsvWriter {
 public:
  // `counters`: the config's counters; the file has their columns, in schema order.
  // Throws iobench::Error (exit 2) when the file exists or cannot be created.
  explicit RunTsvWriter(const std::filesystem::path& path, std::vector<Counter> counters = {});
  void append(const RunRow& row);  // throws iobench::Error on a write error (disk full)
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] const std::vector<Counter>& counters() const noexcept { return counters_; }
  // What the file holds: the header and every row appended (what follows the runs reads this,
  // not the file again: WrittenRun). About 300 bytes a row.
  [[nodiscard]] const std::string& text() const noexcept { return written_; }
  [[nodiscard]] std::string take_text() noexcept { return std::move(written_); }

 private:
  std::filesystem::path path_;
  std::vector<Counter> counters_;
  UniqueFd fd_;
  std::string written_;
};

}  // namespace iobench::runfile
