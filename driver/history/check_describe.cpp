// The line `history check` prints for each series (docs/history.md, "Check"), iobench's own and
// imported ones.
#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "common/error.hpp"
#include "driver/history/check.hpp"
#include "driver/report/compare.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {

std::string_view to_string(CellVerdict verdict) {
  switch (verdict) {
    case CellVerdict::kRegression:
      return "regression";
    case CellVerdict::kAcknowledged:
      return "acknowledged";
    case CellVerdict::kConditionsChanged:
      return "conditions changed";
    case CellVerdict::kFaster:
      return "faster";
    case CellVerdict::kSteady:
      return "steady";
    case CellVerdict::kWithinDrift:
      return "within drift";
    case CellVerdict::kTooFewSessions:
      return "too few sessions";
    case CellVerdict::kTooFewRuns:
      return "too few runs";
    case CellVerdict::kNoBaseline:
      return "no baseline";
    case CellVerdict::kNothingCounts:
      return "nothing counts";
    case CellVerdict::kMissing:
      return "missing";
    case CellVerdict::kUnverified:
      return "unverified";
    case CellVerdict::kOtherMachine:
      return "other machine";
    case CellVerdict::kUnderpowered:
      return "underpowered";
  }
  return "";
}

std::string series_label(const StoredSeries& series) {
  return fmt::format("{} {}", series.key.test, series.key.conditions());
}

std::string value_text(double value, const SeriesKey& key) {
  constexpr std::pair<std::string_view, double> kTimeUnits[] = {
      {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
  for (const auto& [unit, seconds] : kTimeUnits) {
    if (key.unit != unit) continue;
    // format_seconds stops at whole microseconds; a microbenchmark's times are below.
    const double s = value * seconds;
    if (s > 0 && s < 1e-6) return fmt::format("{:.3g} ns", s * 1e9);
    if (s > 0 && s < 1e-4) return fmt::format("{:.3g} µs", s * 1e6);
    return util::format_seconds(s);
  }
  return key.unit.empty() ? fmt::format("{:.4g}", value)
                          : fmt::format("{:.4g} {}", value, key.unit);
}

namespace {

// An imported series' figures in its own unit and direction: "latency 1.20 µs -> 1.50 µs, 1.25
// times higher [1.20, 1.31], p < 0.001 (lower is better)".
std::string imported_figures(const report::Row& row, const SeriesKey& key) {
  std::string line = fmt::format("{} {} -> {}", key.sink, value_text(row.base_median, key),
                                 value_text(row.new_median, key));
  if (row.ratio > 0 && std::isfinite(row.ratio)) {
    const bool lower = row.ratio < 1;
    line += fmt::format(", {:.2f} times {}", lower ? 1 / row.ratio : row.ratio,
                        lower ? "lower" : "higher");
  }
  line += report::p_phrase(row.p_value);
  if (row.verdict == report::Verdict::kNoChange) line += " (not a significant difference)";
  return line + fmt::format(" ({} is better)", key.direction);
}

// Said of a series whose file gave only summaries: how strong its verdict can be.
std::string summary_note(const CellCheck& cell) {
  if (!cell.summary_n) return "";
  return fmt::format(
      "; no samples: the file gave only a summary a run (n = {}), one value each, so each run "
      "is judged as a session, against how far the earlier runs spread",
      *cell.summary_n);
}

// "; not judged (exit 4; --allow-new-series accepts it)", "; not judged, accepted by ...", "".
std::string gate_suffix(const CellCheck& cell) {
  if (cell.gate == Gate::kAccepted) return "; not judged, accepted by " + cell.accepted_by;
  if (cell.gate != Gate::kNotJudged) return "";
  if (cell.accepted_by.empty()) return fmt::format("; not judged (exit {})", kExitNotJudged);
  return fmt::format("; not judged (exit {}; {} accepts it)", kExitNotJudged, cell.accepted_by);
}

}  // namespace

std::string describe_cell(const CellCheck& cell) {
  const std::string head = fmt::format("{} {} {}", to_string(cell.verdict), cell.change_id,
                                       series_label(*cell.timeline->series));
  switch (cell.verdict) {
    case CellVerdict::kNoBaseline:
    case CellVerdict::kNothingCounts:
    case CellVerdict::kMissing:
    case CellVerdict::kUnverified:
    case CellVerdict::kOtherMachine:
      return fmt::format("{}: {}{}", head, cell.not_judged, gate_suffix(cell));
    case CellVerdict::kConditionsChanged:
      return fmt::format(
          "{}: {}; not judged as a regression (no baseline run shares its conditions){}", head,
          cell.conditions, gate_suffix(cell));
    default:
      break;
  }
  const report::Row& row = cell.comparison;
  const SeriesKey& key = cell.timeline->series->key;
  std::string line =
      key.tool.empty()
          ? fmt::format("{}: elapsed {} -> {}, {}", head, util::format_seconds(row.base_median),
                        util::format_seconds(row.new_median), report::verdict_phrase(row))
          : fmt::format("{}: {}", head, imported_figures(row, key));
  // verdict_phrase carries the interval; an imported series' line says its ratio's.
  if (row.ci && !key.tool.empty())
    line += fmt::format(", ratio in [{:.3f}, {:.3f}]", row.ci->low, row.ci->high);
  line += fmt::format(", against {} rows of {} run{}", row.base_n, cell.baseline_runs,
                      cell.baseline_runs == 1 ? "" : "s");
  if (cell.verdict == CellVerdict::kRegression) {
    line += fmt::format(", over the {:g} % allowed", cell.min_effect_pct);
  }
  if (cell.verdict == CellVerdict::kRegression || cell.verdict == CellVerdict::kAcknowledged ||
      cell.verdict == CellVerdict::kFaster) {
    line += fmt::format(", change in {}", format_range(cell.commits));
  }
  const bool rows_moved = shows_change(cell.rows_verdict);  // regression or faster by its rows
  if (rows_moved) line += "; " + session_phrase(cell.sessions);
  if (cell.ack != nullptr) {
    line += fmt::format("; acknowledged by {} at {}: {}", cell.ack->who, cell.ack->acked_at,
                        cell.ack->why);
  }
  // Not judged for want of power: why, where the lines above do not say it.
  if (cell.verdict == CellVerdict::kUnderpowered ||
      (cell.verdict == CellVerdict::kTooFewSessions && !rows_moved)) {
    line += "; " + cell.not_judged;
  }
  if (!cell.excluded.empty()) line += fmt::format("; not counted: {}", cell.excluded);
  if (rows_moved && key.tool.empty()) {
    line += "; " + format_explanation(cell.why);
  }
  return line + summary_note(cell) + gate_suffix(cell);
}

}  // namespace iobench::history
