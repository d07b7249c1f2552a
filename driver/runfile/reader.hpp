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
  // Some file's config has `"verify": false` for this test: its output was never checked against
  // the reference (docs/reports.md, "Marks"), so every surface marks it.
  bool unverified = false;

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
  // Each file's config's baseline (from its meta file), in the order of `files`: "" for none or
  // unknown. The reports' reference when no --baseline is given (docs/reports.md, "The answer").
  std::vector<std::string> baselines;
  std::size_t rows = 0;                         // data rows read, all statuses
  std::array<bool, kMetricCount> has_metric{};  // the metric's column is in some file
  bool has_disturbance = false;                 // some file has others_cpu_s, steal_s or wait_cpu_s
  // The conditions (kConditionKeys) the files differ in, which the default grouping keys the
  // groups by: runs that differ in one are never pooled by default (docs/reports.md), and every
  // surface says which split them. Empty with an explicit --group-by.
  std::vector<std::string> split_by;

  // Position of a column in group_by, or npos.
  [[nodiscard]] std::size_t key_index(std::string_view column) const;
  // The counter metrics some file has a column for, in schema order.
  [[nodiscard]] std::vector<Metric> counter_metrics() const;
};

// The conditions of a whole run file that change every figure in it, from its meta file, named
// like columns: the cache mode ("warm", "cold", "none"; "" unknown), the host, iobench's build,
// the counters counted, the pipe sinks' size. Runs of files that differ in one are never pooled
// by default (docs/reports.md; 12 ms warm and 84 ms cold runs made one median of 48.4 ms). None is
// a column of the run file but host, whose rows' value is used where a file has the column.
inline constexpr std::string_view kCacheKey = "cache";
inline constexpr std::array<std::string_view, 5> kConditionKeys{kCacheKey, "host", "build",
                                                                "counters", "pipe_size"};

struct ReadOptions {
  // Columns to group by. Empty: the default, default_columns and then each condition
  // (kConditionKeys) the files differ in (RunSet::split_by). A column named here must exist in at
  // least one file (a condition always does); files without it give an empty value.
  std::vector<std::string> group_by;
  // When true, a group_by or default column that no file has is not an error: every row gets ""
  // there (compare and plot group by test, input and sink, whatever the files have).
  bool allow_missing_columns = false;
  // The default's columns before the conditions. Empty: test, input, sink and host, those present
  // in any file (summarize).
  std::vector<std::string> default_columns{};
};

// How plot, compare and the HTML report group: test, input and sink (kept where no file has one),
// then every condition the files differ in; the rule summarize's default follows too.
ReadOptions cell_grouping();

struct RunMeta;  // meta.hpp

// One run file's text and the name its errors cite.
struct RunFileText {
  std::string name;
  std::string text;
  std::string cache_mode;         // "warm", "cold", "none" from the meta file; "" when unknown
  const RunMeta* meta = nullptr;  // the other conditions and `verify`; none when unknown
};

// The same over text held elsewhere (a mapped file, docs/reports.md "Speed"); the views need to
// live only through the call.
struct RunFileView {
  std::string name;
  std::string_view text;
  std::string cache_mode;
  const RunMeta* meta = nullptr;
};

// Parses and groups run files held in memory. Throws iobench::Error (exit 2) on a missing
// required column, an unknown --group-by column, or a malformed row; the message names the file,
// the line and the column.
RunSet parse_runs(const std::vector<RunFileText>& files, const ReadOptions& options = {});
RunSet parse_runs(std::string_view text, std::string name, const ReadOptions& options = {});
RunSet parse_run_views(const std::vector<RunFileView>& files, const ReadOptions& options = {});

// Files grouped on two sides (compare's base and new): the default group-by is chosen over every
// file, so runs that differ in a condition are not compared across it either; each side grouped
// alone.
std::vector<RunSet> parse_run_sides(const std::vector<std::vector<RunFileView>>& sides,
                                    const ReadOptions& options = {});

// Reads the files ("-" is standard input) and parses them (parse_runs); an unreadable file is an
// iobench::Error (exit 2) too. The cache mode, the --filter and the other conditions of
// RESULTS/NAME.tsv come from the meta file that `iobench run` writes beside it,
// RESULTS/meta/NAME.json (its config's `cache`, warm by default); none when that file is missing
// or unreadable.
std::string cache_mode_from_meta(const std::filesystem::path& run_file);
RunSet read_runs(const std::vector<std::filesystem::path>& files, const ReadOptions& options = {});
std::vector<RunSet> read_run_sides(const std::vector<std::vector<std::filesystem::path>>& sides,
                                   const ReadOptions& options = {});

}  // namespace iobench::runfile
