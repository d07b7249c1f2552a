#pragma once
// Groups the rows of run files into samples for the reports. The rows are read by the one reader
// (rows.hpp: every format ever written, columns by header name), told to parse only the columns a
// summary needs. Failed, mismatched and other non-ok rows are excluded from the samples and
// counted.
#include <array>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "driver/runfile/numbers.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::runfile {

struct Group {
  std::vector<std::string> key;  // one value per group-by column ("" where a file lacks it)
  // Samples of the ok runs, in file order: seconds for elapsed/user/system, percent for
  // cpu_pct, KiB for mem. A counter's samples are those of the ok runs that counted it (an
  // empty cell is "not counted", not 0), so they may be fewer than ok_count().
  std::array<std::vector<double>, kMetricCount> samples;
  std::vector<int> exit_codes;                   // of the ok runs (0 where the file has none)
  std::array<std::size_t, kStatusCount> rows{};  // rows read, by status
  std::string input;                             // the input column's value when every row agrees
  bool mixed_inputs = false;                     // rows of this group name different inputs
  CacheCheck cache;
  // What the rest of the machine did during each ok run that recorded it (docs/driver.md,
  // "Disturbance"): CPU seconds of other processes, and steal seconds; and what the run itself
  // waited for a CPU.
  std::vector<double> others_cpu_s;
  std::vector<double> steal_s;
  std::vector<double> wait_cpu_s;
  // No run of the group ended ok but some were disturbed: its samples (and the figures above)
  // are those of the disturbed runs, so that it still shows figures, each surface marking them
  // (docs/driver.md, "Disturbance"). False otherwise: the samples are the ok runs'.
  bool from_disturbed_runs = false;

  [[nodiscard]] const std::vector<double>& metric(Metric m) const { return samples[index(m)]; }
  // The runs the samples are of: the ok runs, or the disturbed ones (from_disturbed_runs).
  [[nodiscard]] std::size_t ok_count() const { return samples[0].size(); }
  // The rows that ended ok.
  [[nodiscard]] std::size_t ok_runs() const {
    return rows[static_cast<std::size_t>(RunStatus::kOk)];
  }
  [[nodiscard]] std::size_t excluded_count() const;
};

struct RunSet {
  std::vector<std::string> group_by;  // column names, the key's order
  std::vector<Group> groups;          // in order of first appearance
  std::vector<std::string> files;
  // Each file's --filter (from its meta file), in the order of `files`: "" for none or unknown.
  std::vector<std::string> filters;
  std::size_t rows = 0;                         // data rows read, all statuses
  std::array<bool, kMetricCount> has_metric{};  // the metric's column is in some file
  bool has_disturbance = false;                 // some file has others_cpu_s, steal_s or wait_cpu_s

  // Position of a column in group_by, or npos.
  [[nodiscard]] std::size_t key_index(std::string_view column) const;
  // The counter metrics some file has a column for, in schema order.
  [[nodiscard]] std::vector<Metric> counter_metrics() const;
};

// The group-by key of a file's cache mode ("warm", "cold", "none"; its meta file's, "" unknown):
// not a column of the run file, named like one.
inline constexpr std::string_view kCacheKey = "cache";

struct ReadOptions {
  // Columns to group by. Empty: test, input, sink and host, those present in any file, and the
  // cache mode (kCacheKey) where the files' differ. A column named here must exist in at least
  // one file (kCacheKey always does); files without it give an empty value.
  std::vector<std::string> group_by;
  // When true, a group_by column that no file has is not an error: every row gets "" there
  // (compare and plot group by test, input and sink, whatever the files have).
  bool allow_missing_columns = false;
};

// One run file's text and the name its errors cite.
struct RunFileText {
  std::string name;
  std::string text;
  std::string cache_mode;  // "warm", "cold", "none" from the meta file; "" when unknown
  // The --filter its run was made with (meta file); "" for none or unknown. Initialised, so a
  // text given without it need not say it.
  std::string filter{};
};

// The same over text held elsewhere (a mapped file, docs/reports.md "Speed"); the views need to
// live only through the call.
struct RunFileView {
  std::string name;
  std::string_view text;
  std::string cache_mode;
  std::string filter{};
};

// What the grouping takes of a run file's meta file.
struct MetaFacts {
  std::string cache_mode;  // its config's `cache`, warm by default; "" when unknown
  std::string filter;      // its run's --filter; "" for none or unknown
};

// Parses and groups run files held in memory. Throws iobench::Error (exit 2) on a missing
// required column, an unknown --group-by column, or a malformed row; the message names the file,
// the line and the column.
RunSet parse_runs(const std::vector<RunFileText>& files, const ReadOptions& options = {});
RunSet parse_runs(std::string_view text, std::string name, const ReadOptions& options = {});
RunSet parse_run_views(const std::vector<RunFileView>& files, const ReadOptions& options = {});

// Reads the files ("-" is standard input) and parses them (parse_runs); an unreadable file is an
// iobench::Error (exit 2) too. The cache mode and --filter of RESULTS/NAME.tsv come from the meta
// file that `iobench run` writes beside it, RESULTS/meta/NAME.json; none when that file is
// missing or unreadable.
MetaFacts meta_facts_for(const std::filesystem::path& run_file);
RunSet read_runs(const std::vector<std::filesystem::path>& files, const ReadOptions& options = {});

}  // namespace iobench::runfile
