#pragma once
// Per-group statistics of a RunSet, the `relative` and MB/s columns, and the warnings a person
// should read before trusting the numbers (hyperfine's and pyperf's kinds).
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "driver/report/counter_figures.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/stats/median_interval.hpp"

namespace iobench::report {

// Why a group is the one another's `relative` divides by (docs/reports.md, "The answer"): the
// one reference rule of every surface is the baseline when there is one, else the fastest; under
// `run --versus` a test's base build twin, NAME@base.
enum class ReferenceRule { kBaseline, kFastest, kBaseTwin };

struct GroupStats {
  const runfile::Group* group = nullptr;
  std::array<stats::SampleStats, runfile::kMetricCount> metrics;  // NaN fields when n = 0
  std::optional<std::uint64_t> input_bytes;  // size of the input file, when it can be stat'ed
  std::optional<double> mb_per_s;            // input_bytes / 10^6 / elapsed median
  std::optional<double> relative;  // median / the reference's (SummaryOptions::relative_metric)
  bool is_reference = false;       // the group `relative` divides by
  // The group `relative` divides by (an index into Summary::groups), and why that one; none when
  // no peer has a positive median.
  std::optional<std::size_t> reference;
  ReferenceRule reference_rule = ReferenceRule::kFastest;
  // A null-sink group: nobody sees its output (a program may detect /dev/null and skip the
  // work), so it is verified only through its unrecorded verification run into a pipe.
  bool verified_through_pipe_run = false;
  std::size_t elapsed_outliers = 0;  // modified z-score > 3.5, kept in every statistic
  // The 95 % interval of the elapsed median that the precision target stops on
  // (stats/median_interval.hpp); NaN half-width below 2 runs. Two tests are resolved when their
  // intervals do not overlap.
  stats::MedianInterval elapsed_ci95;
  std::optional<std::uint64_t> input_lines;  // counted when a syscalls column needs it
  CounterFigures counter_figures;            // from the counters' medians, where they exist
  // The disturbance's medians over the runs of the samples that recorded it (docs/driver.md,
  // "Disturbance"), NaN where none did; others_cpus: others and steal over the elapsed median, in
  // CPUs (context); waited_cpus: the run's own wait for a CPU over it, the rule's figure.
  double others_cpu_s_median = std::numeric_limits<double>::quiet_NaN();
  double steal_s_median = std::numeric_limits<double>::quiet_NaN();
  std::optional<double> others_cpus;
  double wait_cpu_s_median = std::numeric_limits<double>::quiet_NaN();
  std::optional<double> waited_cpus;

  [[nodiscard]] const stats::SampleStats& metric(runfile::Metric m) const {
    return metrics[runfile::index(m)];
  }
};

struct SummaryOptions {
  // The test the `relative` column divides by; empty: the baseline the run files' configs name
  // (their meta files), else the fastest.
  std::string baseline;
  std::string baseline_named_by = "--baseline";  // how the answer names where `baseline` came from
  double spread_warning = 0.05;                  // warn when elapsed MAD / median exceeds this
  double outlier_threshold = 3.5;                // modified z-score
  std::size_t min_runs = 3;                      // warn below this many ok runs
  // The metric `relative` and the reference compare (plot draws other metrics than elapsed).
  runfile::Metric relative_metric = runfile::Metric::kElapsed;
  // A warning that gathers groups (few runs, spread, outliers) names this many and counts the
  // rest ("... and 4,990 more"), so it stays one readable line at any size; 0: names every one.
  std::size_t groups_named = 0;
  std::string all_groups_in;  // where every group is named, for that line ("meta/NAME.json")
  // The pretty table shows "waited CPU" when a group's waited_cpus is over this or it has
  // disturbed runs, so the tables of quiet runs stay as they were.
  double waited_cpus_shown = 0.05;
};

struct Summary {
  const runfile::RunSet* set = nullptr;
  std::vector<GroupStats> groups;  // the set's order
  std::vector<std::string> warnings;
  // The same warnings with every group named (what the run record keeps, docs/reports.md).
  std::vector<std::string> warnings_in_full;
  bool shows_waited_cpu = false;  // SummaryOptions::waited_cpus_shown
  // The baseline the reference rule took (SummaryOptions::baseline, else the configs'), and how
  // the answer names it: "--baseline", "the config's baseline"; empty: none, the fastest.
  std::string baseline;
  std::string baseline_named_by;
};

// `relative` compares groups that agree on every group-by column except `test` (for the run
// report: the same input and sink). MB/s uses the input file's size as stat(2) gives it for the
// path in the `input` column (relative to the current folder), 1 MB = 10^6 bytes.
Summary summarize(const runfile::RunSet& set, const SummaryOptions& options = {});

// "test (input, sink, host)": the key's first value, the others in parentheses, empty ones left
// out.
std::string group_label(const runfile::RunSet& set, const runfile::Group& group);

// The marks every surface shows beside a group's test (docs/reports.md, "Marks"):
// "unverified" (its strategy has "verify": false: its output never checked), "disturbed" (every
// run disturbed: the figures are theirs), "N disturbed" (N runs disturbed and left out, re-run
// where the disturbance rule is rerun). In that order; none for a plain group.
std::vector<std::string> group_marks(const runfile::Group& group);
// The test with its marks, as the tables and the plot label it: "A (unverified, 2 disturbed)".
std::string marked_test(const std::string& test, const runfile::Group& group);
// What each kind of mark the groups have means, one line each (the note under a table).
std::vector<std::string> mark_notes(const std::vector<const runfile::Group*>& groups);

// What the default grouping split by (RunSet::split_by), as every surface says it: "not pooled:
// the run files differ in cache (warm, cold); each group names its own", and where the command has
// a --group-by, " (--group-by without cache pools them)". Empty when nothing was split.
std::string split_note(const runfile::RunSet& set, bool has_group_by_option);
// The same of sets grouped alike (compare's two sides), each condition's values over all of them.
std::string split_note(const std::vector<const runfile::RunSet*>& sets, bool has_group_by_option);

// The one warning about runs whose cache state did not hold (check.off > 0): `summarize` gives it
// per group, `run` keeps it per test in the meta file.
std::string cache_state_warning(const std::string& label, const runfile::CacheCheck& check);

}  // namespace iobench::report
