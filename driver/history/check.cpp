#include "driver/history/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "driver/history/came_in.hpp"
#include "driver/history/check_conditions.hpp"
#include "driver/history/check_scope.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {
namespace {

// Whether the change starting at `point` is acknowledged (under any of the series' hashes).
bool acked_at(const Timeline& timeline, const RunPoint& point, const std::vector<Ack>& acks) {
  return ack_at(timeline, point, acks) != nullptr;
}

// The n of the first summary among `rows` (an import without per-run values), if any.
std::optional<std::int64_t> summary_among(const std::vector<const StoredSample*>& rows) {
  for (const StoredSample* s : rows) {
    if (s->summary_n) return s->summary_n;
  }
  return std::nullopt;
}

// The runs the newest is judged against (indices into timeline.points, oldest first), before
// like with like is applied.
std::vector<std::size_t> baseline_candidates(const Timeline& timeline, std::size_t newest,
                                             const HistoryData& data, const CheckOptions& options,
                                             const std::optional<BaseRef>& base) {
  std::vector<std::size_t> candidates;
  if (base) {
    for (std::size_t i = 0; i < newest; ++i) {
      if (in_base(*timeline.points[i].run, *base)) candidates.push_back(i);
    }
    return candidates;
  }
  std::size_t start = 0;  // the last acknowledged change starts the level the newest is held to
  for (std::size_t i = 0; i < newest; ++i) {
    if (acked_at(timeline, timeline.points[i], data.acks)) start = i;
  }
  // A series of summaries has one value a run, judged as a session (summary_verdict): its window
  // is never narrower than kSummaryBaselineRuns.
  const bool summaries = summary_among(timeline.points[newest].samples).has_value();
  const std::size_t window =
      summaries ? std::max(options.baseline_runs, kSummaryBaselineRuns) : options.baseline_runs;
  if (newest - start > window) start = newest - window;
  for (std::size_t i = start; i < newest; ++i) candidates.push_back(i);
  return candidates;
}

// Where higher is better (a throughput), a drop is the regression and a rise the improvement.
CellVerdict verdict_of(const report::Row& row, double min_effect_pct, bool higher_is_better) {
  if (row.verdict == report::Verdict::kTooFewRuns) return CellVerdict::kTooFewRuns;
  const bool rose =
      row.verdict == report::Verdict::kSlower && (row.ratio - 1) * 100 > min_effect_pct;
  const bool fell =
      row.verdict == report::Verdict::kFaster && (1 - row.ratio) * 100 > min_effect_pct;
  if (rose) return higher_is_better ? CellVerdict::kFaster : CellVerdict::kRegression;
  if (fell) return higher_is_better ? CellVerdict::kRegression : CellVerdict::kFaster;
  return CellVerdict::kSteady;
}

// A change the rows show stands only where it stands out from how far sessions drift: not known,
// a slowdown cannot be judged (an improvement is said as the rows say it; it fails nothing).
CellVerdict with_sessions(CellVerdict rows, const SessionCheck& sessions, const report::Row& row,
                          double alpha) {
  if (!shows_change(rows)) return rows;
  if (!sessions.known)
    return rows == CellVerdict::kRegression ? CellVerdict::kTooFewSessions : rows;
  const stats::SessionJudgement& j = sessions.judgement;
  const bool same_way = (j.ratio > 1) == (row.ratio > 1);
  return j.p_value < alpha && same_way ? rows : CellVerdict::kWithinDrift;
}

// Whether a passing verdict stands on the newest session's interval against the baseline's (a
// spread between sessions is used), not the rows'.
bool on_sessions(const SessionCheck& sessions) {
  return sessions.known && sessions.sd_log > 0 && sessions.baseline_sessions > 0;
}

// The interval a passing verdict stands on (on_sessions). None when there is neither.
std::optional<stats::Interval> judged_interval(const CellCheck& cell) {
  if (on_sessions(cell.sessions)) {
    return stats::Interval{cell.sessions.judgement.low, cell.sessions.judgement.high};
  }
  return cell.comparison.ci;
}

// A steady verdict passes the gate only where its interval rules out the slowdown it exists to
// find: its worse end within the minimum effect (docs/history.md, "Exit statuses").
CellVerdict with_power(const CellCheck& cell) {
  if (cell.verdict != CellVerdict::kSteady && cell.verdict != CellVerdict::kWithinDrift) {
    return cell.verdict;
  }
  // How far sessions drift is not known: no interval of one session's can rule anything out.
  if (!cell.sessions.known) return CellVerdict::kTooFewSessions;
  const std::optional<stats::Interval> interval = judged_interval(cell);
  const double allowed = cell.min_effect_pct / 100;
  const bool weak =
      !interval || (cell.timeline->series->key.higher_is_better() ? interval->low < 1 - allowed
                                                                  : interval->high > 1 + allowed);
  return weak ? CellVerdict::kUnderpowered : cell.verdict;
}

// A series of summaries has one value a run, and a U test of the newest's one value against the
// baseline's is never significant by its normal approximation (z tends to sqrt(3) < 1.96): each
// run is a session of its own, so the session rule alone judges it where the spread is known.
CellVerdict summary_verdict(const CellCheck& cell, bool higher_is_better,
                            const CheckOptions& options) {
  const stats::SessionJudgement& j = cell.sessions.judgement;
  if (!cell.sessions.known || !(j.p_value < options.alpha)) return cell.verdict;
  report::Row row;
  row.ratio = j.ratio;
  row.verdict = j.ratio > 1 ? report::Verdict::kSlower : report::Verdict::kFaster;
  return verdict_of(row, cell.min_effect_pct, higher_is_better);
}

// The earlier runs the spread between sessions is learnt from: those of the newest's conditions
// (indices into timeline.points, oldest first), and where among them an acknowledged change
// starts a level.
struct EarlierSessions {
  std::vector<std::size_t> points;
  std::vector<std::size_t> level_starts;
};

EarlierSessions earlier_sessions(const Timeline& timeline, const Conditions& newest,
                                 const HistoryData& data) {
  EarlierSessions earlier;
  const std::size_t end = timeline.points.size() - 1;
  const std::size_t begin = end > 2 * kSessionHistoryRuns ? end - 2 * kSessionHistoryRuns : 0;
  for (std::size_t i = begin; i < end; ++i) {
    if (!same_conditions(conditions_of(timeline.points[i], *timeline.series), newest)) continue;
    earlier.points.push_back(i);
    if (acked_at(timeline, timeline.points[i], data.acks)) earlier.level_starts.push_back(i);
  }
  return earlier;
}

// What the sessions say of a change the rows show (check_sessions.hpp). Where the rows' new level
// came in before the newest run, at `first`, its runs are a level of their own: they neither
// teach the spread nor stand in the baseline the newest run is held to, so a slowdown that
// stayed is still one a commit later.
void judge_sessions(CellCheck& cell, const std::vector<std::size_t>& baseline,
                    EarlierSessions& earlier, std::size_t first, const CheckOptions& options) {
  std::vector<std::size_t> old_level;
  for (const std::size_t i : baseline) {
    if (i < first) old_level.push_back(i);
  }
  if (first + 1 < cell.timeline->points.size()) earlier.level_starts.push_back(first);
  cell.sessions = check_sessions(*cell.timeline, earlier.points, earlier.level_starts, old_level,
                                 options.session_spread_pct, options.alpha);
  cell.verdict = with_sessions(cell.rows_verdict, cell.sessions, cell.comparison, options.alpha);
}

// Compares the newest run with the baseline runs (indices, oldest first) and says what moved.
void judge(CellCheck& cell, const std::vector<std::size_t>& baseline, EarlierSessions earlier,
           const HistoryData& data, const CheckOptions& options, bool with_base) {
  const Timeline& timeline = *cell.timeline;
  const StoredSeries& series = *timeline.series;
  const std::size_t newest = timeline.points.size() - 1;
  std::vector<const RunPoint*> points;
  Resolution resolution = resolution_of(*timeline.points[newest].run);
  for (const std::size_t i : baseline) {
    points.push_back(&timeline.points[i]);
    resolution = coarsest(resolution, resolution_of(*timeline.points[i].run));
  }
  cell.baseline_runs = baseline.size();
  const std::vector<const StoredSample*> before = counted_rows(points, series);
  const std::vector<const StoredSample*> now = counted_rows({&timeline.points[newest]}, series);
  std::vector<double> a;
  std::vector<double> b;
  a.reserve(before.size());
  b.reserve(now.size());
  for (const StoredSample* s : before) a.push_back(s->elapsed_s);
  for (const StoredSample* s : now) b.push_back(s->elapsed_s);
  report::CompareOptions compare_options;
  compare_options.alpha = options.alpha;
  cell.comparison = report::compare_samples(a, b, compare_options);
  cell.rows_verdict =
      verdict_of(cell.comparison, cell.min_effect_pct, series.key.higher_is_better());
  // Runs after the baseline (--base) or after its oldest run (the default) may already show it.
  const std::size_t first_allowed = with_base ? baseline.back() + 1 : baseline.front() + 1;
  const std::size_t first =
      shows_change(cell.rows_verdict)
          ? first_index_of_new_level(timeline, first_allowed, cell.comparison.base_median,
                                     cell.comparison.new_median)
          : newest;
  judge_sessions(cell, baseline, earlier, first, options);
  cell.summary_n = summary_among(now);
  if (cell.summary_n) cell.verdict = summary_verdict(cell, series.key.higher_is_better(), options);
  if (!cell.summary_n) cell.summary_n = summary_among(before);
  cell.verdict = with_power(cell);
  // A change is named by the run where it came in, as every surface names it (the feed, list,
  // changes) and as an ack of it starts the level later runs are held to; an acknowledged change
  // is expected: passed whether or not sessions could judge it.
  const bool changed = shows_change(cell.verdict) || cell.verdict == CellVerdict::kTooFewSessions;
  const std::size_t came_in = changed ? first : newest;
  cell.came_in = &timeline.points[came_in];
  cell.change_id = change_id(series.series_hash, cell.came_in->run->run_hash);
  if (cell.verdict == CellVerdict::kRegression || cell.verdict == CellVerdict::kTooFewSessions) {
    cell.ack = ack_at(timeline, *cell.came_in, data.acks);
    if (cell.ack != nullptr) cell.verdict = CellVerdict::kAcknowledged;
  }
  cell.commits = change_range(timeline, baseline.back(), came_in);
  // An import has none of the figures the why reads (user and system time, the counters).
  if (cell.verdict != CellVerdict::kSteady && series.key.tool.empty()) {
    cell.why = explain_change(before, now, options.alpha, resolution);
  }
}

CellCheck check_line(const Timeline& timeline, const HistoryData& data, const CheckOptions& options,
                     const std::optional<BaseRef>& base, const NewestScope& scope) {
  CellCheck cell;
  cell.timeline = &timeline;
  const StoredSeries& series = *timeline.series;
  const std::size_t newest = timeline.points.size() - 1;
  const RunPoint& last = timeline.points[newest];
  cell.change_id = change_id(series.series_hash, last.run->run_hash);
  cell.min_effect_pct = min_effect_for(series.key, options.min_effects);
  cell.commits = CommitRange{"", commit_name(*last.run)};
  if (out_of_scope(cell, scope)) return cell;
  cell.excluded = excluded_summary(last, series);
  if (!series.key.verified) {
    // The config chose not to verify it: its rows never count, in any run, so no run can make it
    // judged, and a gate that passed it would be green with nothing compared (gate()).
    cell.verdict = CellVerdict::kUnverified;
    return cell;
  }
  if (counted_rows({&last}, series).empty()) {
    cell.verdict = CellVerdict::kNothingCounts;
    return cell;
  }
  const std::vector<std::size_t> candidates =
      baseline_candidates(timeline, newest, data, options, base);
  if (candidates.empty()) return cell;  // kNoBaseline
  cell.commits.from = commit_name(*timeline.points[candidates.back()].run);
  const Conditions conditions = conditions_of(last, series);
  std::vector<std::size_t> baseline;
  for (const std::size_t i : candidates) {
    if (same_conditions(conditions_of(timeline.points[i], series), conditions)) {
      baseline.push_back(i);
    }
  }
  if (baseline.empty()) {
    cell.verdict = CellVerdict::kConditionsChanged;
    cell.conditions =
        what_moved(conditions, conditions_of(timeline.points[candidates.back()], series),
                   series.key.cache_mode);
    return cell;
  }
  judge(cell, baseline, earlier_sessions(timeline, conditions, data), data, options,
        base.has_value());
  return cell;
}

// The series judged along its newest point's line (line_of): the cell then names the whole
// timeline, and the point its change came in at there.
CellCheck check_series(const Timeline& timeline, const HistoryData& data,
                       const CheckOptions& options, const std::optional<BaseRef>& base,
                       const std::optional<std::string>& default_branch, const NewestScope& scope) {
  const Timeline line = line_of(timeline, base, default_branch);
  CellCheck cell = check_line(line, data, options, base, scope);
  cell.timeline = &timeline;
  if (cell.came_in != nullptr) {
    const StoredRun* run = cell.came_in->run;
    cell.came_in = &*std::find_if(timeline.points.begin(), timeline.points.end(),
                                  [run](const RunPoint& point) { return point.run == run; });
  }
  return cell;
}

// Why a cell could not be judged, and whether an option accepts it (docs/history.md, "Exit
// statuses").
void gate(CellCheck& cell, const CheckOptions& options, const std::optional<BaseRef>& base) {
  const auto not_judged = [&cell](std::string why, bool accepted, const char* option) {
    cell.not_judged = std::move(why);
    cell.gate = accepted ? Gate::kAccepted : Gate::kNotJudged;
    cell.accepted_by = option;
  };
  const std::string where = base ? fmt::format("--base {}", base->given) : "the runs before";
  switch (cell.verdict) {
    case CellVerdict::kRegression:
      cell.gate = Gate::kRegression;
      return;
    case CellVerdict::kNoBaseline:
      return not_judged(base
                            ? fmt::format("a new series: no run of {} to compare with", base->given)
                            : std::string("a new series: no earlier run to compare with"),
                        options.allow_new_series, "--allow-new-series");
    case CellVerdict::kMissing:
      return not_judged(fmt::format("in {} (the last at {}), not in the newest run ({})", where,
                                    cell.commits.from, cell.commits.to),
                        options.allow_missing_series, "--allow-missing-series");
    case CellVerdict::kConditionsChanged:
      return not_judged(fmt::format("no baseline run shares its conditions: {}", cell.conditions),
                        options.allow_conditions_changed, "--allow-conditions-changed");
    case CellVerdict::kUnverified:
      return not_judged(
          "its output is not verified (\"verify\": false, or bench --no-verify), so its rows "
          "never count",
          options.allow_unverified, "--allow-unverified");
    case CellVerdict::kNothingCounts:
      return not_judged(fmt::format("the newest run has no ok, verified row ({})", cell.excluded),
                        false, "");
    case CellVerdict::kTooFewSessions:
      return not_judged(
          fmt::format("{} by its rows, but {}",
                      cell.rows_verdict == CellVerdict::kRegression ? "a regression" : "steady",
                      session_phrase(cell.sessions)),
          false, "");
    case CellVerdict::kUnderpowered: {
      const stats::Interval interval = judged_interval(cell).value_or(stats::Interval{});
      const bool sessions = on_sessions(cell.sessions);
      return not_judged(
          fmt::format(
              "too weak to judge: {} [{:.2f}, {:.2f}] reaches past the {:g} % allowed, so "
              "it cannot rule that slowdown out (more runs{} would tell)",
              sessions ? "the newest session against the baseline's" : "the ratio's interval",
              interval.low, interval.high, cell.min_effect_pct, sessions ? " and sessions" : ""),
          options.allow_underpowered, "--allow-underpowered");
    }
    case CellVerdict::kTooFewRuns:
      return not_judged(fmt::format("too few rows to judge ({} of the baseline, {} of the newest "
                                    "run)",
                                    cell.comparison.base_n, cell.comparison.new_n),
                        false, "");
    default:
      cell.gate = Gate::kPass;
  }
}

}  // namespace

int check_exit_status(const CheckReport& report) {
  if (report.regressions > 0) return kExitRunFailed;
  // An empty store judged nothing: a gate pointed at the wrong store must not pass.
  if (report.not_judged > 0 || report.cells.empty()) return kExitNotJudged;
  return kExitOk;
}

CheckReport check_history(const HistoryData& data, const std::vector<Timeline>& timelines,
                          const CheckOptions& options) {
  CheckReport report;
  std::optional<BaseRef> base;
  if (options.base) {
    base = resolve_base(data, *options.base);
    report.base = base->branch ? "branch " + base->given : "commit " + base->commit;
  }
  const NewestScope scope = newest_scope(data, timelines, base, options.baseline_runs);
  const std::optional<std::string> line_base =
      base ? std::nullopt : default_branch(data, options.default_branch);
  if (line_base) report.default_branch = *line_base;
  for (const Timeline& timeline : timelines) {
    CellCheck cell = check_series(timeline, data, options, base, line_base, scope);
    gate(cell, options, base);
    report.regressions += cell.gate == Gate::kRegression ? 1 : 0;
    report.not_judged += cell.gate == Gate::kNotJudged ? 1 : 0;
    report.accepted += cell.gate == Gate::kAccepted ? 1 : 0;
    report.cells.push_back(std::move(cell));
  }
  report.exit_status = check_exit_status(report);
  return report;
}

}  // namespace iobench::history
