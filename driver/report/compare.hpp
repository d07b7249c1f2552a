#pragma once
// `iobench compare`: matches the groups of two run sets and judges each change with the
// Mann-Whitney U test (as Google Benchmark's compare.py) and a distribution-free confidence
// interval of the ratio of times (stats.hpp).
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "driver/report/export.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/stats/hodges_lehmann.hpp"

namespace iobench::report {

struct CompareOptions {
  double alpha = 0.05;       // significance level of the two-sided test
  double confidence = 0.95;  // of the ratio's interval
  runfile::Metric metric = runfile::Metric::kElapsed;
  std::optional<double> fail_on_regression_pct;  // a significant slowdown above this fails
};

enum class Verdict { kSlower, kFaster, kNoChange, kTooFewRuns };

struct Row {
  std::vector<std::string> key;  // values of the group-by columns
  std::size_t base_n = 0;
  std::size_t new_n = 0;
  double base_median = 0;
  double new_median = 0;
  // new / base as the Hodges-Lehmann estimate, the median of the pairwise ratios: the one `ci`
  // and the U test go with (a ratio of medians can fall outside its own interval). Where a base
  // run is 0 (a counter), new_median / base_median; NaN when that is 0 or a side is empty.
  double ratio = 0;
  std::optional<stats::Interval> ci;  // of the ratio; empty when too few runs
  std::optional<double> p_value;      // empty when a side has no run
  Verdict verdict = Verdict::kTooFewRuns;
  bool regression = false;  // counts against --fail-on-regression
};

struct Result {
  std::vector<std::string> group_by;
  std::vector<Row> rows;  // groups present in both, in the base file's order
  std::vector<std::string> warnings;
  std::string metric;
  double alpha = 0.05;
  double confidence = 0.95;
  bool failed = false;  // some regression exceeded --fail-on-regression
};

// One comparison of two samples (no key): medians, ratio, interval, p-value and verdict.
Row compare_samples(std::span<const double> base, std::span<const double> candidate,
                    const CompareOptions& options = {});

// The factor and its interval, as every surface says them: "1.52× slower [1.31, 1.77]"; faster,
// the factor is 1 / ratio and its interval [1 / high, 1 / low]: "2.31× faster [2.27, 2.35]". The
// interval is left out when there is none; never a ±, which would halve a lopsided interval.
// "no comparison (no time to divide by)" without a ratio.
std::string factor_phrase(const Row& row);

// The comparison as people say it: factor_phrase, then the p and a verdict other than
// faster/slower: "2.31× faster [2.27, 2.35], p < 0.001", "1.01× slower, p = 0.410 (not a
// significant difference)", "(too few runs to judge)". For `bench`: base is the reference
// command's times, candidate the command's.
std::string verdict_phrase(const Row& row);

// A p-value as every surface says it (compare's tables, the phrases above, `history check`,
// `history changes`, the published site): "0.004", or "< 0.001" below that. p_phrase is the
// clause after a ratio: ", p = 0.004", ", p < 0.001"; empty where there is no p.
std::string p_text(double p_value);
std::string p_phrase(const std::optional<double>& p_value);
// A ratio and its interval as the gates' tables and lines say it: "1.200 [1.180, 1.220]", the
// ratio alone without an interval, "" for a ratio that is not finite.
std::string ratio_text(double ratio, const std::optional<stats::Interval>& interval);

// Reads both sides grouped by `group_by` (empty: test, input, sink and every condition the files
// of both sides differ in, runfile::cell_grouping: a warm base and a cold new are not compared,
// a warning says why) and compares them.
Result compare_files(const std::vector<std::filesystem::path>& base,
                     const std::vector<std::filesystem::path>& candidate,
                     const std::vector<std::string>& group_by, const CompareOptions& options);
Result compare(const runfile::RunSet& base, const runfile::RunSet& candidate,
               const CompareOptions& options);

// tsv columns: the group-by columns (test input sink), base_median new_median ratio ci_low
// ci_high p_value significant (yes, no, or too_few_runs). Pretty and markdown say the verdict in
// words, in input x sink sections cut to view.top_rows (slower first, by size, when cut; the
// base file's order otherwise), and end with a one-line tally of every row; json has every field.
void write_result(const Result& result, report::Format format, std::ostream& out,
                  const report::TableView& view = {});

// "slower", "faster", "no change", "too few runs"
std::string_view to_string(Verdict verdict);

}  // namespace iobench::report
