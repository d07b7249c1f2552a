#pragma once
// `iobench history check` (docs/history.md, "Check"): the newest run of each series against its
// baseline, with compare's Mann-Whitney U test and Hodges-Lehmann interval of the ratio, like
// with like, and the why beside each change.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/check_sessions.hpp"
#include "driver/history/min_effect.hpp"
#include "driver/history/timeline.hpp"
#include "driver/history/why.hpp"
#include "driver/report/compare.hpp"

namespace iobench::history {

// The default baseline: the runs before the newest, since its last acknowledged change, at most
// this many (older levels should not outvote the recent one, and the cost stays flat).
inline constexpr std::size_t kDefaultBaselineRuns = 20;
// The least default baseline of a series of summaries (BMF, aggregate-only results: one value a
// run), which the session rule judges one value a run (check.cpp, summary_verdict): as many runs
// as a baseline of iobench's own holds rows, not 20 values.
inline constexpr std::size_t kSummaryBaselineRuns = 40;
// A run is "busy" from this many CPUs' worth of other work at its start: the level at which
// `run` warns (docs/formats.md, "Meta file", busy_cpus_start), the same figure as
// kBusyCpusThreshold in driver/run/machine_load.hpp, which the history may not include (the
// layer walls, docs/architecture.md); check, list and publish all read this one.
inline constexpr double kBusyCpus = 0.5;

struct CheckOptions {
  std::optional<std::string> base;  // a commit (prefix of 4 or more) or a branch
  // The branch a feature branch's series are judged against without --base (check_scope.hpp,
  // default_branch): --default-branch, else CI's target branch, else main or master.
  std::optional<std::string> default_branch;
  std::vector<MinEffect> min_effects;  // the last that matches a series wins
  double alpha = 0.05;
  std::size_t baseline_runs = kDefaultBaselineRuns;
  // The spread between sessions to assume (percent; --session-spread): the spread used where the
  // series' history is too short to learn one, and the least used where it is not.
  std::optional<double> session_spread_pct;
  // The cases of "could not be judged" that the gate accepts (docs/history.md, "Exit statuses").
  bool allow_new_series = false;
  bool allow_missing_series = false;
  bool allow_conditions_changed = false;
  bool allow_unverified = false;
  bool allow_underpowered = false;
};

enum class CellVerdict {
  kRegression,
  kAcknowledged,       // a regression marked as expected (history ack)
  kConditionsChanged,  // no baseline run shares the newest run's verified conditions
  kFaster,
  kSteady,
  kWithinDrift,  // the rows moved, but no further than the series' sessions drift
  kTooFewRuns,
  kTooFewSessions,  // the rows moved, and too few earlier sessions say how far sessions drift
  kNoBaseline,
  kNothingCounts,  // the newest run has no ok, verified row
  kMissing,        // in the runs before the newest (its branch's, or --base's), not in it
  kUnverified,     // a test whose output is not verified ("verify": false): its rows never count
  // Of a host class the newest run's series do not have, and with no run of its commit: another
  // machine's history (or this machine's before it changed), not the newest run's; it passes.
  kOtherMachine,
  // Steady or within drift, but its interval reaches past the minimum effect: the comparison had
  // not the power to rule out the slowdown the gate exists to find (too few runs or sessions).
  kUnderpowered,
};
std::string_view to_string(CellVerdict verdict);
// Whether the verdict says the newest run's level moved (regression, acknowledged, faster): the
// verdicts that have a run where the change came in and a commit range.
inline bool shows_change(CellVerdict verdict) {
  return verdict == CellVerdict::kRegression || verdict == CellVerdict::kAcknowledged ||
         verdict == CellVerdict::kFaster;
}

// What the gate makes of a cell: judged and passed, a regression, or not judged (accepted by an
// option or not).
enum class Gate { kPass, kRegression, kNotJudged, kAccepted };

// The commits between which a cell's change came in: the last run that did not show it (a
// baseline run, or one after the baseline) .. the first that does. Runs without a commit are
// named "run" and the first 8 digits of their hash. `from` is empty when there is no earlier run.
struct CommitRange {
  std::string from;
  std::string to;
};

struct CellCheck {
  const Timeline* timeline = nullptr;
  CellVerdict verdict = CellVerdict::kNoBaseline;
  // What the newest run's rows alone say against the baseline's (the rule before sessions
  // counted): kRegression, kFaster, kSteady or kTooFewRuns, where there was a comparison.
  CellVerdict rows_verdict = CellVerdict::kNoBaseline;
  SessionCheck sessions;
  // The series at the run where the change came in (came_in), what every surface names and
  // `history ack` takes; at the newest run where nothing changed.
  std::string change_id;
  report::Row comparison;
  std::size_t baseline_runs = 0;
  std::string conditions;  // what moved, for kConditionsChanged
  std::string excluded;    // rows of the newest run that do not count
  Explanation why;
  const Ack* ack = nullptr;
  double min_effect_pct = kDefaultMinEffectPct;
  Gate gate = Gate::kPass;
  std::string not_judged;   // why, for kNotJudged and kAccepted: "no earlier run to compare with"
  std::string accepted_by;  // the option, for kAccepted: "--allow-new-series"
  CommitRange commits;
  const RunPoint* came_in = nullptr;        // the first run of the newest run's level (came_in.hpp)
  const StoredRun* missing_from = nullptr;  // kMissing: the newest run, which lacks the series
  // An imported series whose file gave only a summary (its n): one value a run, no samples.
  std::optional<std::int64_t> summary_n;
};

struct CheckReport {
  std::vector<CellCheck> cells;  // one per timeline, in the timelines' order
  std::size_t regressions = 0;
  std::size_t not_judged = 0;  // Gate::kNotJudged
  std::size_t accepted = 0;    // Gate::kAccepted
  std::string base;            // what --base named: "branch main", "commit aaaa1111..."; or ""
  std::string default_branch;  // without --base, the branch besides each series' own; or ""
  int exit_status = 0;         // check_exit_status
};

// The exit status of `history check` (docs/history.md, "Exit statuses"): 1 when any series
// regressed, even when others could not be judged (the most serious finding wins: a regression
// is a fact about the code, the others only say the gate could not look); else 4
// (kExitNotJudged) when any could not be judged and no option accepts it, or there is no series
// at all; else 0.
int check_exit_status(const CheckReport& report);

// Throws iobench::Error (exit 2) when options.base names no run of the store, or several
// commits, or is too short to name one (check_scope.cpp, resolve_base).
CheckReport check_history(const HistoryData& data, const std::vector<Timeline>& timelines,
                          const CheckOptions& options);

// What --base names, checked against the store: a branch (exactly a branch label), a commit
// (exactly a commit label or measured commit, or the one that starts with REF, 4 or more digits).
struct BaseRef {
  std::string given;
  bool branch = false;
  std::string commit;  // the whole commit, when not a branch
};
// Throws iobench::Error (exit 2), one line naming the commits REF could be, when REF names no
// run, several commits, or is a prefix shorter than 4.
BaseRef resolve_base(const HistoryData& data, const std::string& ref);
bool in_base(const StoredRun& run, const BaseRef& base);
// The run's commit label, else its measured commit, else "run " and its hash's first 8 digits.
std::string commit_name(const StoredRun& run);

// One line for a cell: "regression 3f2a9c1b@7b21e0aa read-raw (data/x.tsv, pipe): elapsed
// 10.1 ms -> 12.2 ms, 1.21 ± 0.02 times slower [1.19, 1.23], p < 0.001 against 12 rows of 4
// runs; why: ...".
std::string describe_cell(const CellCheck& cell);
// "read-raw (data/x.tsv, pipe)"; an imported series "BM_Copy (gbench real_time)".
std::string series_label(const StoredSeries& series);
// A value of `key`'s series in its unit: a time as format_seconds writes it ("1.20 µs"), any
// other with its unit ("1.25e+06 items/s").
std::string value_text(double value, const SeriesKey& key);
// "aaaa1111..bbbb2222", or "bbbb2222" when there is no earlier run.
std::string format_range(const CommitRange& range);

}  // namespace iobench::history
