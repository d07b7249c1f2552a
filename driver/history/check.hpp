#pragma once
// `iobench history check` (docs/history.md, "Check"): the newest run of each series against its
// baseline, with compare's Mann-Whitney U test and Hodges-Lehmann interval of the ratio, like
// with like, and the why beside each change.
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"
#include "driver/history/why.hpp"
#include "driver/report/compare.hpp"

namespace iobench::history {

// A regression must be significant and slower by more than this (percent), unless a
// --min-effect REGEX=PCT matching the test says otherwise.
inline constexpr double kDefaultMinEffectPct = 5;
// The default baseline: the runs before the newest, since its last acknowledged change, at most
// this many (older levels should not outvote the recent one, and the cost stays flat).
inline constexpr std::size_t kDefaultBaselineRuns = 20;
// A run is "busy" from this many CPUs' worth of other work at its start: the level at which
// `run` warns (docs/formats.md, "Meta file", busy_cpus_start), the same figure as
// kBusyCpusThreshold in driver/run/machine_load.hpp, which the history may not include (the
// layer walls, docs/architecture.md); check, list and publish all read this one.
inline constexpr double kBusyCpus = 0.5;

struct MinEffect {
  std::optional<std::regex> test;  // empty: every test
  std::string spelling;            // as given
  double pct = kDefaultMinEffectPct;
};
// "5" or "REGEX=PCT" (the regex matched against the whole test name). Throws iobench::Error
// (exit 2) for anything else.
MinEffect parse_min_effect(const std::string& text);

struct CheckOptions {
  std::optional<std::string> base;     // a commit (prefix of 4 or more) or a branch
  std::vector<MinEffect> min_effects;  // the last that matches a test wins
  double alpha = 0.05;
  std::size_t baseline_runs = kDefaultBaselineRuns;
};

enum class CellVerdict {
  kRegression,
  kAcknowledged,       // a regression marked as expected (history ack)
  kConditionsChanged,  // no baseline run shares the newest run's verified conditions
  kFaster,
  kSteady,
  kTooFewRuns,
  kNoBaseline,
  kNothingCounts,  // the newest run has no ok, verified row
};
std::string_view to_string(CellVerdict verdict);

struct CellCheck {
  const Timeline* timeline = nullptr;
  CellVerdict verdict = CellVerdict::kNoBaseline;
  std::string change_id;  // the series at its newest run
  report::Row comparison;
  std::size_t baseline_runs = 0;
  std::string conditions;  // what moved, for kConditionsChanged
  std::string excluded;    // rows of the newest run that do not count
  Explanation why;
  const Ack* ack = nullptr;
  double min_effect_pct = kDefaultMinEffectPct;
};

struct CheckReport {
  std::vector<CellCheck> cells;  // every series, the store's order
  std::size_t regressions = 0;
};

CheckReport check_history(const HistoryData& data, const std::vector<Timeline>& timelines,
                          const CheckOptions& options);

// One line for a cell: "regression 3f2a9c1b@7b21e0aa read-raw (data/x.tsv, pipe): elapsed
// 10.1 ms -> 12.2 ms, 1.21 ± 0.02 times slower [1.19, 1.23], p < 0.001 against 12 rows of 4
// runs; why: ...".
std::string describe_cell(const CellCheck& cell);
// "read-raw (data/x.tsv, pipe)".
std::string series_label(const StoredSeries& series);

}  // namespace iobench::history
