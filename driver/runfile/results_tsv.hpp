#pragma once
// perf-results.tsv: one row per run (docs/formats.md "Run file"). The first six columns are those
// of the dcat/GNU time recipe, so `tsv-summarize -H --group-by 1 --median 2-4,6` still works on our
// files.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/fd.hpp"

namespace iobench {

inline constexpr std::array<std::string_view, 21> kRunColumns{
    "test",   "elapsed", "user",    "system",    "cpu_pct",   "mem",         "input",
    "sink",   "repeat",  "status",  "exit_code", "minflt",    "majflt",      "nvcsw",
    "nivcsw", "inblock", "oublock", "bytes_out", "cache_pct", "output_hash", "host"};

enum class RunStatus { kOk, kFailed, kSignal, kTimeout, kMismatch, kError };

std::string_view to_string(RunStatus status) noexcept;
std::optional<RunStatus> parse_run_status(std::string_view text) noexcept;

struct RunRow {
  std::string test;
  double elapsed_s = 0;
  double user_s = 0;
  double system_s = 0;
  double cpu_pct = 0;  // (user + system) / elapsed * 100
  std::int64_t max_rss_kib = 0;
  std::string input;
  std::string sink;
  int repeat = 0;  // 1-based
  RunStatus status = RunStatus::kOk;
  std::optional<int> exit_code;  // 128 + signal number for signal/timeout; empty for error
  std::int64_t minflt = 0;
  std::int64_t majflt = 0;
  std::int64_t nvcsw = 0;
  std::int64_t nivcsw = 0;
  std::int64_t inblock = 0;
  std::int64_t oublock = 0;
  std::optional<std::uint64_t> bytes_out;  // empty where the sink cannot count (null)
  std::optional<double> cache_pct;         // empty when the input is not a file
  std::string output_hash;                 // empty when not hashed
  std::string host;
};

// The header line, tab-separated, with a trailing newline.
std::string run_tsv_header();
// One row, tab-separated, with a trailing newline. Fields never contain tabs or newlines
// (they are replaced by spaces).
std::string format_run_row(const RunRow& row);

// Appends rows to a new results file. The file is created with O_EXCL (never overwrites, never
// follows a planted symlink) and each row is written with one write(2) as its run ends, so a
// crash or an interrupt leaves every finished row and a well-formed file.
class RunTsvWriter {
 public:
  // Throws iobench::Error (exit 2) when the file exists or cannot be created.
  explicit RunTsvWriter(const std::filesystem::path& path);
  void append(const RunRow& row);  // throws iobench::Error on a write error (disk full)
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
  UniqueFd fd_;
};

}  // namespace iobench
