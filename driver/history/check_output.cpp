#include "driver/history/check_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "common/error.hpp"
#include "driver/report/compare.hpp"
#include "driver/util/format.hpp"
#include "driver/util/json.hpp"
#include "driver/util/text.hpp"

namespace iobench::history {
namespace {

using Json = nlohmann::ordered_json;

bool has_comparison(const CellCheck& cell) {
  switch (cell.verdict) {
    case CellVerdict::kRegression:
    case CellVerdict::kAcknowledged:
    case CellVerdict::kFaster:
    case CellVerdict::kSteady:
    case CellVerdict::kWithinDrift:
    case CellVerdict::kTooFewRuns:
    case CellVerdict::kTooFewSessions:
    case CellVerdict::kUnderpowered:
      return true;
    default:
      return false;
  }
}

std::string_view gate_name(Gate gate) {
  switch (gate) {
    case Gate::kPass:
      return "pass";
    case Gate::kRegression:
      return "regression";
    case Gate::kNotJudged:
      return "not judged";
    case Gate::kAccepted:
      return "accepted";
  }
  return "";
}

// The why in words, the same in every format: what moved for a change, why a series was not
// judged, nothing for a steady one.
std::string why_of(const CellCheck& cell) {
  if (!cell.not_judged.empty()) {
    if (cell.gate == Gate::kNotJudged && !cell.accepted_by.empty()) {
      return fmt::format("{}; {} accepts it", cell.not_judged, cell.accepted_by);
    }
    if (cell.gate == Gate::kAccepted) {
      return fmt::format("{}; accepted by {}", cell.not_judged, cell.accepted_by);
    }
    return cell.not_judged;
  }
  if (cell.verdict == CellVerdict::kWithinDrift) return session_phrase(cell.sessions);
  if (!shows_change(cell.verdict)) return "";
  std::string why = format_explanation(cell.why).substr(std::string_view("why: ").size());
  if (cell.ack != nullptr) {
    why += fmt::format("; acknowledged by {} at {}: {}", cell.ack->who, cell.ack->acked_at,
                       cell.ack->why);
  }
  return why;
}

std::string markdown_verdict(const CellCheck& cell) {
  std::string text(to_string(cell.verdict));
  if (cell.gate == Gate::kRegression || cell.gate == Gate::kNotJudged) text = "**" + text + "**";
  if (shows_change(cell.verdict)) text += " in " + format_range(cell.commits);
  if (cell.gate == Gate::kNotJudged) text += ", not judged";
  if (cell.gate == Gate::kAccepted) text += ", accepted";
  return text;
}

// What fails the gate first, then what it could not judge, then the rest, each in check's order:
// a pull request's reader sees the regression without scrolling past the steady series.
std::vector<const CellCheck*> gate_order(const CheckReport& report) {
  std::vector<const CellCheck*> cells;
  for (const CellCheck& cell : report.cells) cells.push_back(&cell);
  const auto rank = [](const CellCheck* cell) {
    return cell->gate == Gate::kRegression ? 0 : cell->gate == Gate::kNotJudged ? 1 : 2;
  };
  std::stable_sort(cells.begin(), cells.end(),
                   [&rank](const CellCheck* a, const CellCheck* b) { return rank(a) < rank(b); });
  return cells;
}

void write_markdown(const CheckReport& report, std::ostream& out) {
  out << fmt::format("**iobench history check**: {}; exit {}: {}\n\n", check_summary(report),
                     report.exit_status, exit_reason(report));
  out << "| series | verdict | baseline → newest | ratio [interval] | p | change | why |\n";
  out << "|---|---|---|---|---|---|---|\n";
  for (const CellCheck* cell : gate_order(report)) {
    const report::Row& row = cell->comparison;
    const bool compared = has_comparison(*cell);
    const SeriesKey& key = cell->timeline->series->key;
    // The id `history ack` takes, where there is a change to accept.
    const std::string change =
        shows_change(cell->verdict) ? fmt::format("`{}`", cell->change_id) : "";
    out << fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n",
                       util::escape_table_cell(series_label(*cell->timeline->series)),
                       markdown_verdict(*cell),
                       compared ? fmt::format("{} → {}", value_text(row.base_median, key),
                                              value_text(row.new_median, key))
                                : "",
                       compared ? report::ratio_text(row.ratio, row.ci) : "",
                       compared && row.p_value ? report::p_text(*row.p_value) : "", change,
                       util::escape_table_cell(why_of(*cell)));
  }
}

// The spread between sessions a cell was judged with, and where its newest session fell.
Json sessions_json(const SessionCheck& sessions) {
  const stats::SessionJudgement& j = sessions.judgement;
  Json out = Json::object();
  out["spread_pct"] = sessions.known ? Json(spread_pct(sessions.sd_log)) : Json(nullptr);
  out["spread_from"] =
      !sessions.known ? Json(nullptr) : Json(sessions.stated ? "stated" : "learnt");
  out["learnt_pct"] =
      sessions.learnt.df > 0 ? Json(spread_pct(sessions.learnt.sd_log)) : Json(nullptr);
  out["learnt_sessions"] = sessions.learnt.sessions;
  out["learnt_df"] = sessions.learnt.df;
  out["baseline_sessions"] = sessions.baseline_sessions;
  out["ratio"] = sessions.known ? util::number_or_null(j.ratio) : Json(nullptr);
  out["interval"] = sessions.known ? Json::array({j.low, j.high}) : Json(nullptr);
  out["p"] = sessions.known ? Json(j.p_value) : Json(nullptr);
  return out;
}

Json cell_json(const CellCheck& cell) {
  const StoredSeries& series = *cell.timeline->series;
  const report::Row& row = cell.comparison;
  const bool compared = has_comparison(cell);
  Json j = Json::object();
  j["series"] = series_label(series);
  j["series_id"] = series.series_hash;
  j["test"] = series.key.test;
  j["input"] = series.key.input;
  j["sink"] = series.key.sink;
  // An imported series' medians are in its own unit, and its direction says which way is worse.
  j["tool"] = series.key.tool.empty() ? Json("iobench") : Json(series.key.tool);
  j["unit"] = series.key.unit;
  j["direction"] = series.key.direction;
  j["change_id"] = cell.change_id;
  j["verdict"] = to_string(cell.verdict);
  j["gate"] = gate_name(cell.gate);
  j["accepted_by"] = cell.gate == Gate::kAccepted ? Json(cell.accepted_by) : Json(nullptr);
  j["baseline_median_s"] = compared ? util::number_or_null(row.base_median) : Json(nullptr);
  j["newest_median_s"] = compared ? util::number_or_null(row.new_median) : Json(nullptr);
  j["ratio"] = compared ? util::number_or_null(row.ratio) : Json(nullptr);
  j["interval"] = compared && row.ci ? Json::array({row.ci->low, row.ci->high}) : Json(nullptr);
  j["p"] = compared && row.p_value ? Json(*row.p_value) : Json(nullptr);
  j["baseline_rows"] = row.base_n;
  j["newest_rows"] = row.new_n;
  j["baseline_runs"] = cell.baseline_runs;
  j["rows_verdict"] = compared ? Json(to_string(cell.rows_verdict)) : Json(nullptr);
  j["sessions"] = compared ? sessions_json(cell.sessions) : Json(nullptr);
  j["why"] = why_of(cell);
  j["commits"] = Json{{"from", cell.commits.from.empty() ? Json(nullptr) : Json(cell.commits.from)},
                      {"to", cell.commits.to}};
  return j;
}

void write_json(const CheckReport& report, std::ostream& out) {
  Json j = Json::object();
  j["exit_status"] = report.exit_status;
  j["summary"] = check_summary(report);
  j["reason"] = exit_reason(report);
  j["base"] = report.base.empty() ? Json(nullptr) : Json(report.base);
  j["default_branch"] = report.default_branch.empty() ? Json(nullptr) : Json(report.default_branch);
  j["series"] = Json::array();
  for (const CellCheck& cell : report.cells) j["series"].push_back(cell_json(cell));
  out << j.dump(2) << '\n';
}

std::string_view github_level(const CellCheck& cell) {
  if (cell.verdict == CellVerdict::kConditionsChanged) return "warning";
  if (cell.gate == Gate::kRegression || cell.gate == Gate::kNotJudged) return "error";
  return "notice";
}

void write_github(const CheckReport& report, std::ostream& out) {
  for (const CellCheck& cell : report.cells) {
    const std::string title =
        fmt::format("{}: {}", to_string(cell.verdict), series_label(*cell.timeline->series));
    out << fmt::format("::{} title={}::{}\n", github_level(cell),
                       util::github_escape_property(title),
                       util::github_escape_data(describe_cell(cell)));
  }
  out << fmt::format(
      "::{} title={}::{}\n", report.exit_status == kExitOk ? "notice" : "error",
      util::github_escape_property("iobench history check"),
      util::github_escape_data(fmt::format("{}; exit {}: {}", check_summary(report),
                                           report.exit_status, exit_reason(report))));
}

}  // namespace

std::string check_summary(const CheckReport& report) {
  std::map<CellVerdict, std::size_t> tally;
  for (const CellCheck& cell : report.cells) ++tally[cell.verdict];
  std::vector<std::string> parts;
  parts.reserve(tally.size());
  for (const auto& [verdict, n] : tally)
    parts.push_back(fmt::format("{} {}", n, to_string(verdict)));
  return fmt::format(
      "{} series{}: {}", report.cells.size(), report.base.empty() ? "" : " against " + report.base,
      parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", ")));
}

std::string exit_reason(const CheckReport& report) {
  if (report.regressions > 0) {
    std::string reason =
        fmt::format("{} regression{}", report.regressions, report.regressions == 1 ? "" : "s");
    if (report.not_judged > 0)
      reason += fmt::format(", and {} series not judged", report.not_judged);
    return reason;
  }
  if (report.not_judged > 0) return fmt::format("{} series not judged", report.not_judged);
  if (report.cells.empty()) return "no series in the store, nothing judged";
  if (report.accepted > 0) {
    return fmt::format("none regressed, {} not judged but accepted", report.accepted);
  }
  return "every series judged, none regressed";
}

void write_check_report(const CheckReport& report, CheckFormat format, std::ostream& out) {
  switch (format) {
    case CheckFormat::kText:
      for (const CellCheck& cell : report.cells) {
        if (cell.verdict != CellVerdict::kSteady) out << describe_cell(cell) << '\n';
      }
      return;
    case CheckFormat::kMarkdown:
      return write_markdown(report, out);
    case CheckFormat::kJson:
      return write_json(report, out);
    case CheckFormat::kGithub:
      return write_github(report, out);
  }
}

}  // namespace iobench::history
