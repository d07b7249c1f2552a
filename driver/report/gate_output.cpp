#include "driver/report/gate_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "common/error.hpp"
#include "driver/util/json.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr GateVerdict kVerdicts[] = {GateVerdict::kSlower, GateVerdict::kNotJudged,
                                     GateVerdict::kPassed};

std::string_view verdict_name(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::kSlower:
      return "slower";
    case GateVerdict::kNotJudged:
      return "not judged";
    case GateVerdict::kPassed:
      return "passed";
  }
  return "";
}

std::size_t count(const Gate& gate, GateVerdict verdict) {
  return static_cast<std::size_t>(
      std::count_if(gate.cells.begin(), gate.cells.end(),
                    [verdict](const GateCell& cell) { return cell.verdict == verdict; }));
}

// What fails the gate first, then what it could not judge, then what passed, each in order.
std::vector<const GateCell*> gate_order(const Gate& gate) {
  std::vector<const GateCell*> cells;
  for (const GateVerdict verdict : kVerdicts) {
    for (const GateCell& cell : gate.cells) {
      if (cell.verdict == verdict) cells.push_back(&cell);
    }
  }
  return cells;
}

std::string heading(const Gate& gate) {
  return fmt::format("{}; exit {}: {}", gate_summary(gate), gate_exit_status(gate),
                     gate_exit_reason(gate));
}

void write_markdown(const Gate& gate, std::ostream& out) {
  out << fmt::format("**{} --fail-if-slower {:g}**: {}\n\n", gate.made_by, gate.pct, heading(gate));
  out << fmt::format("| {} | verdict | ratio [interval] | judged by |\n|---|---|---|---|\n",
                     gate.subject);
  for (const GateCell* cell : gate_order(gate)) {
    const std::string verdict(verdict_name(cell->verdict));
    out << fmt::format(
        "| {} | {} | {} | {} |\n", util::escape_table_cell(cell->cell.empty() ? "-" : cell->cell),
        cell->verdict == GateVerdict::kPassed ? verdict : "**" + verdict + "**",
        cell->ratio ? ratio_text(*cell->ratio, cell->interval) : "",
        util::escape_table_cell(cell->judged_by.empty() ? cell->line : cell->judged_by));
  }
}

void write_json(const Gate& gate, std::ostream& out) {
  Json j = Json::object();
  j["exit_status"] = gate_exit_status(gate);
  j["summary"] = gate_summary(gate);
  j["reason"] = gate_exit_reason(gate);
  j["reference"] = gate.reference;
  j["fail_if_slower_pct"] = gate.pct;
  j["commands"] = Json::array();
  for (const GateCell& cell : gate.cells) {
    Json c = Json::object();
    c["command"] = cell.cell.empty() ? Json(nullptr) : Json(cell.cell);
    c["verdict"] = verdict_name(cell.verdict);
    c["ratio"] = cell.ratio ? util::number_or_null(*cell.ratio) : Json(nullptr);
    c["interval"] =
        cell.interval ? Json::array({cell.interval->low, cell.interval->high}) : Json(nullptr);
    c["judged_by"] = cell.judged_by;
    c["line"] = cell.line;
    j["commands"].push_back(c);
  }
  out << j.dump(2) << '\n';
}

void write_github(const Gate& gate, std::ostream& out) {
  for (const GateCell& cell : gate.cells) {
    const std::string title = fmt::format("{}: {}", verdict_name(cell.verdict),
                                          cell.cell.empty() ? gate.reference : cell.cell);
    out << fmt::format("::{} title={}::{}\n",
                       cell.verdict == GateVerdict::kPassed ? "notice" : "error",
                       util::github_escape_property(title), util::github_escape_data(cell.line));
  }
  out << fmt::format(
      "::{} title={}::{}\n", gate_exit_status(gate) == kExitOk ? "notice" : "error",
      util::github_escape_property(fmt::format("{} --fail-if-slower {:g}", gate.made_by, gate.pct)),
      util::github_escape_data(heading(gate)));
}

}  // namespace

VerdictFormat parse_verdict_format(const std::string& option, const std::string& name) {
  if (name == "text") return VerdictFormat::kText;
  if (name == "markdown") return VerdictFormat::kMarkdown;
  if (name == "json") return VerdictFormat::kJson;
  if (name == "github") return VerdictFormat::kGithub;
  throw Error(fmt::format("{} {}: one of text, markdown, json, github", option, name));
}

std::string gate_summary(const Gate& gate) {
  std::vector<std::string> parts;
  for (const GateVerdict verdict : kVerdicts) {
    if (const std::size_t n = count(gate, verdict))
      parts.push_back(fmt::format("{} {}", n, verdict_name(verdict)));
  }
  const std::size_t commands = gate.cells.size();
  return fmt::format("{} {}{} against '{}': {}", commands, gate.subject, commands == 1 ? "" : "s",
                     gate.reference, fmt::join(parts, ", "));
}

std::string gate_exit_reason(const Gate& gate) {
  if (const std::size_t n = count(gate, GateVerdict::kSlower)) return fmt::format("{} slower", n);
  if (const std::size_t n = count(gate, GateVerdict::kNotJudged))
    return fmt::format("{} not judged", n);
  return fmt::format("every {} judged, none slower", gate.subject);
}

void write_gate(const Gate& gate, VerdictFormat format, std::ostream& out) {
  switch (format) {
    case VerdictFormat::kText:
      for (const GateCell* cell : gate_order(gate))
        out << fmt::format("{}: {}\n", verdict_name(cell->verdict), cell->line);
      out << fmt::format("{} --fail-if-slower {:g}: {}\n", gate.made_by, gate.pct, heading(gate));
      return;
    case VerdictFormat::kMarkdown:
      return write_markdown(gate, out);
    case VerdictFormat::kJson:
      return write_json(gate, out);
    case VerdictFormat::kGithub:
      return write_github(gate, out);
  }
}

int finish_gate(const Gate& gate, int run_exit_code, std::ostream& err) {
  for (const GateVerdict verdict : {GateVerdict::kSlower, GateVerdict::kNotJudged}) {
    for (const std::string& line : gate_lines(gate, verdict)) err << "iobench: " << line << '\n';
  }
  err.flush();
  return run_exit_code == kExitOk ? gate_exit_status(gate) : run_exit_code;
}

}  // namespace iobench::report
