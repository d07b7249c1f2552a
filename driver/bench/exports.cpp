#include "driver/bench/exports.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "driver/report/hyperfine_json.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/json.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using report::decision_for;
using report::fitting_unit;
using report::format_in_unit;
using report::HyperfineResult;
using report::rule_name;
using report::rule_row;
using report::RuleDecision;
using report::TimeUnit;
using report::to_string;
using report::unit_name;
using report::VersusReference;
using report::write_hyperfine_json;

namespace {

using Json = nlohmann::ordered_json;
using runfile::Metric;

// One group, in the order the exports list them; one without an ok run too, marked failed.
struct Entry {
  const runfile::Group* group = nullptr;  // the exported (corrected) figures
  const runfile::Group* raw = nullptr;    // the same group as the run file has it
  const BenchTest* test = nullptr;        // null for a test bench was not told of
  std::string place;                      // "input, sink" ("sink" without an input)
  std::size_t place_index = 0;
  double mean = 0;
  double stddev = 0;    // NaN below two runs
  bool failed = false;  // no ok run: no time (mean and stddev NaN)
};

// "10 failed, 2 disturbed": why a group has no ok run, by status.
std::string why_no_ok_run(const runfile::Group& group) {
  std::vector<std::string> parts;
  for (std::size_t st = 1; st < runfile::kStatusCount; ++st) {
    if (group.rows[st] > 0)
      parts.push_back(fmt::format("{} {}", group.rows[st], runfile::kStatusWords[st]));
  }
  return parts.empty() ? std::string("no run") : fmt::format("{}", fmt::join(parts, ", "));
}

// By command (the order they were given), then by input and sink as the run file has them.
std::vector<Entry> entries_of(const ExportData& data) {
  const runfile::RunSet& set = *data.figures;
  std::vector<std::string> places;
  std::vector<Entry> entries;
  for (std::size_t g = 0; g < set.groups.size(); ++g) {
    const runfile::Group& group = set.groups[g];
    Entry e;
    e.failed = group.ok_count() == 0;  // kept: a script must see the command, and that it failed
    e.group = &group;
    e.raw = g < data.raw->groups.size() ? &data.raw->groups[g] : &group;
    e.place = group.key[1].empty() ? group.key[2] : group.key[1] + ", " + group.key[2];
    const auto seen = std::find(places.begin(), places.end(), e.place);
    e.place_index = static_cast<std::size_t>(seen - places.begin());
    if (seen == places.end()) places.push_back(e.place);
    for (const BenchTest& test : data.tests) {
      if (test.name == group.key[0]) e.test = &test;
    }
    e.mean = e.failed ? NAN : stats::mean(group.metric(Metric::kElapsed));
    e.stddev = e.failed ? NAN : stats::stddev(group.metric(Metric::kElapsed));
    entries.push_back(e);
  }
  const auto test_index = [&](const Entry& e) {
    return e.test == nullptr ? data.tests.size()
                             : static_cast<std::size_t>(e.test - data.tests.data());
  };
  std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
    return std::make_pair(test_index(a), a.place_index) <
           std::make_pair(test_index(b), b.place_index);
  });
  return entries;
}

double mean_of(const runfile::Group& group, Metric metric) {
  return group.metric(metric).empty() ? NAN : stats::mean(group.metric(metric));
}

double median_of(const runfile::Group& group, Metric metric) {
  return group.metric(metric).empty() ? NAN : stats::median(group.metric(metric));
}

// The median over the reference's on the same input and sink; null for the reference's own.
Json relative_json(const Entry& e, const std::vector<Entry>& all, const std::string& reference) {
  for (const Entry& other : all) {
    if (other.place != e.place || other.group->key[0] != reference) continue;
    if (other.failed || e.failed) return nullptr;
    const double base = stats::median(other.group->metric(Metric::kElapsed));
    const double mine = stats::median(e.group->metric(Metric::kElapsed));
    return base > 0 ? Json(mine / base) : Json(nullptr);
  }
  return nullptr;
}

// The verdict bench printed for the command (docs/bench.md, "Exports"): by the sequential rule
// when it judged the comparison (no p-value then: the U test's is not the rule's error rate),
// else by the U test; null for the reference.
Json verdict_json(const runfile::Group& g, const VersusReference* versus) {
  if (versus == nullptr) return nullptr;
  for (const report::Row& row : versus->result.rows) {
    if (row.key != g.key) continue;
    const RuleDecision* decision = decision_for(*versus, row);
    Json v;
    v["significant"] = significant(row, decision);
    v["judged_by"] = decision != nullptr ? std::string(rule_name(decision->plan))
                                         : std::string("Mann-Whitney U");
    v["outcome"] = decision != nullptr ? std::string(to_string(decision->result.decision))
                                       : std::string(to_string(row.verdict));
    v["ratio"] = util::number_or_null(row.ratio);
    v["ci95"] = row.ci ? Json::array({row.ci->low, row.ci->high}) : Json(nullptr);
    // What the rule decided on, where it judged (as_judged): its estimate (on pairs, their
    // pseudo-median) and its last look's interval, at that look's confidence.
    const std::optional<report::Row> judged = rule_row(row, decision);
    v["rule_ratio"] = judged ? util::number_or_null(judged->ratio) : Json(nullptr);
    v["rule_interval"] = judged ? Json::array({judged->ci->low, judged->ci->high}) : Json(nullptr);
    v["rule_confidence"] = judged ? Json(decision->result.confidence) : Json(nullptr);
    // A decision's error rate is the rule's alpha; the U test's p is printed only beside a
    // comparison the rule did not stop.
    const bool stopped =
        decision != nullptr && (decision->result.decision == stats::Decision::kDifferent ||
                                decision->result.decision == stats::Decision::kEquivalent);
    v["p_value"] = row.p_value && !stopped ? Json(*row.p_value) : Json(nullptr);
    v["alpha"] = decision != nullptr ? decision->plan.alpha : versus->result.alpha;
    v["look_runs"] = decision != nullptr ? Json(decision->result.runs) : Json(nullptr);
    return v;
  }
  return nullptr;
}

Json iobench_json(const Entry& e, const std::vector<Entry>& all, const ExportData& data) {
  const runfile::Group& g = *e.group;
  Json extra;
  extra["input"] = g.key[1];
  extra["sink"] = g.key[2];
  extra["status"] = e.failed ? "failed" : g.from_disturbed_runs ? "disturbed" : "ok";
  extra["ok_runs"] = g.ok_runs();
  extra["n"] = g.ok_count();
  // Every run disturbed: the figures are the disturbed runs' (docs/driver.md, "Disturbance").
  extra["figures_from_disturbed_runs"] = g.from_disturbed_runs;
  Json excluded = Json::object();
  for (std::size_t st = 1; st < runfile::kStatusCount; ++st) {
    if (g.rows[st] > 0) excluded[std::string(runfile::kStatusNames[st])] = g.rows[st];
  }
  extra["excluded"] = std::move(excluded);
  extra["is_reference"] = g.key[0] == data.reference;
  extra["relative_median"] = relative_json(e, all, data.reference);
  extra["verdict"] = verdict_json(g, data.versus);
  extra["user_times"] = g.metric(Metric::kUser);
  extra["system_times"] = g.metric(Metric::kSystem);
  extra["cpu_pct"] = g.metric(Metric::kCpuPct);
  extra["mem_kib"] = g.metric(Metric::kMem);
  if (data.figure.startup) {
    extra["shell_startup_subtracted"] = to_json(*data.figure.startup);
    extra["raw"] = {{"mean", util::number_or_null(mean_of(*e.raw, Metric::kElapsed))},
                    {"median", util::number_or_null(median_of(*e.raw, Metric::kElapsed))},
                    {"user", util::number_or_null(mean_of(*e.raw, Metric::kUser))},
                    {"system", util::number_or_null(mean_of(*e.raw, Metric::kSystem))},
                    {"times", e.raw->metric(Metric::kElapsed)}};
  } else {
    extra["shell_startup_subtracted"] = nullptr;
  }
  return extra;
}

// One command's result on one input and sink; a failed one has no time (null figures).
HyperfineResult result_of(const Entry& e, const std::vector<Entry>& entries,
                          const ExportData& data) {
  const runfile::Group& g = *e.group;
  HyperfineResult r;
  r.command = g.key[0];
  r.mean_s = e.mean;
  r.stddev_s = e.stddev;
  r.median_s = median_of(g, Metric::kElapsed);
  r.user_mean_s = mean_of(g, Metric::kUser);
  r.system_mean_s = mean_of(g, Metric::kSystem);
  r.times_s = g.metric(Metric::kElapsed);
  r.min_s = e.failed ? NAN : stats::min(r.times_s);
  r.max_s = e.failed ? NAN : stats::max(r.times_s);
  r.exit_codes = g.exit_codes;
  r.max_rss_kib = g.metric(Metric::kMem);
  if (e.test != nullptr) r.parameters = e.test->params;
  r.iobench = iobench_json(e, entries, data);
  return r;
}

void write_json(const std::vector<Entry>& entries, const ExportData& data, std::ostream& out) {
  std::vector<HyperfineResult> results;
  results.reserve(entries.size());
  for (const Entry& e : entries) results.push_back(result_of(e, entries, data));
  Json without = Json::array();
  for (const runfile::Group& g : data.figures->groups) {
    if (g.ok_runs() == 0)
      without.push_back({{"command", g.key[0]},
                         {"input", g.key[1]},
                         {"sink", g.key[2]},
                         {"every_run_disturbed", g.from_disturbed_runs}});
  }
  write_hyperfine_json(results,
                       {{"elapsed_figure", data.figure.json_name()},
                        {"elapsed_figure_name", data.figure.name()},
                        {"without_ok_runs", std::move(without)},
                        {"partial", data.partial}},
                       out);
}

// RFC 4180, as hyperfine's csv writer quotes.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void write_csv(const std::vector<Entry>& entries, std::ostream& out) {
  std::vector<std::string> names;  // every param, in the order first met
  for (const Entry& e : entries) {
    if (e.test == nullptr) continue;
    for (const auto& [name, value] : e.test->params) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  out << "command,mean,stddev,median,user,system,min,max";
  for (const auto& name : names) out << ",parameter_" << name;
  out << ",input,sink,status\n";  // iobench's, after hyperfine's columns
  for (const Entry& e : entries) {
    const runfile::Group& g = *e.group;
    const auto& times = g.metric(Metric::kElapsed);
    if (e.failed) {
      out << csv_field(g.key[0]) << ",,,,,,,";  // no time to give
    } else {
      out << fmt::format("{},{},{},{},{},{},{},{}", csv_field(g.key[0]), e.mean,
                         std::isnan(e.stddev) ? 0.0 : e.stddev, stats::median(times),
                         mean_of(g, Metric::kUser), mean_of(g, Metric::kSystem), stats::min(times),
                         stats::max(times));
    }
    for (const auto& name : names) {
      std::string value;
      if (e.test != nullptr) {
        for (const auto& [param, v] : e.test->params) {
          if (param == name) value = v;
        }
      }
      out << ',' << csv_field(value);
    }
    out << ',' << csv_field(g.key[1]) << ',' << csv_field(g.key[2]) << ','
        << csv_field(e.failed                ? "failed: no ok run (" + why_no_ok_run(g) + ")"
                     : g.from_disturbed_runs ? "disturbed: every run (its figures are theirs)"
                                             : "ok")
        << '\n';
  }
}

}  // namespace

namespace {

// The five cells of a row of hyperfine's tables: command, mean ± stddev, min, max, relative.
using Cells = std::array<std::string, 5>;

// Relative to the fastest mean of the same input and sink, as hyperfine 1.15 computes it (the
// spread propagated from both standard deviations); "1.00" for the fastest itself.
std::string hyperfine_relative_cell(const Entry& e, const std::vector<Entry>& entries) {
  const Entry* fastest = nullptr;
  for (const Entry& other : entries) {
    if (other.failed || other.place != e.place) continue;
    if (fastest == nullptr || other.mean < fastest->mean) fastest = &other;
  }
  if (e.failed || fastest == nullptr) return "N/A";
  if (fastest == &e) return "1.00";
  if (!(fastest->mean > 0)) return "N/A";
  const double ratio = e.mean / fastest->mean;
  if (std::isnan(e.stddev) || std::isnan(fastest->stddev) || !(e.mean > 0)) {
    return fmt::format("{:.2f}", ratio);
  }
  const double spread =
      ratio * stats::ratio_relative_stddev(e.mean, e.stddev, fastest->mean, fastest->stddev);
  return fmt::format("{:.2f} ± {:.2f}", ratio, spread);
}

std::vector<Cells> table_cells(std::vector<Entry> entries, const ExportData& data, TimeUnit unit,
                               char quote_open, char quote_close) {
  if (data.tables_by_time) {
    // Failed last: it has no time to sort by.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return std::make_pair(a.failed, a.failed ? 0.0 : a.mean) <
             std::make_pair(b.failed, b.failed ? 0.0 : b.mean);
    });
  }
  const bool several_places =
      std::any_of(entries.begin(), entries.end(), [](const Entry& e) { return e.place_index > 0; });
  std::vector<Cells> rows;
  for (const Entry& e : entries) {
    const auto& times = e.group->metric(Metric::kElapsed);
    std::string command = quote_open + util::escape_table_cell(e.group->key[0]) + quote_close;
    if (several_places) command += " (" + e.place + ")";
    if (e.group->from_disturbed_runs) command += " (every run disturbed)";
    if (e.failed) {
      rows.push_back(
          Cells{command, "failed: no ok run (" + why_no_ok_run(*e.group) + ")", "-", "-", "N/A"});
      continue;
    }
    std::string mean = format_in_unit(e.mean, unit);
    if (!std::isnan(e.stddev)) mean += " ± " + format_in_unit(e.stddev, unit);
    rows.push_back(Cells{command, mean, format_in_unit(stats::min(times), unit),
                         format_in_unit(stats::max(times), unit),
                         hyperfine_relative_cell(e, entries)});
  }
  return rows;
}

void write_markup(const std::vector<Entry>& entries, const ExportData& data, ExportFormat format,
                  std::ostream& out) {
  const auto first_timed =
      std::find_if(entries.begin(), entries.end(), [](const Entry& e) { return !e.failed; });
  const TimeUnit unit = data.time_unit != TimeUnit::kAuto ? data.time_unit
                        : first_timed == entries.end()    ? TimeUnit::kSecond
                                                          : fitting_unit(first_timed->mean);
  const std::string name(unit_name(unit));
  const Cells header{"Command", "Mean [" + name + "]", "Min [" + name + "]", "Max [" + name + "]",
                     "Relative"};
  switch (format) {
    case ExportFormat::kMarkdown:
      out << fmt::format("| {} |\n", fmt::join(header, " | ")) << "|:---|---:|---:|---:|---:|\n";
      for (const Cells& row : table_cells(entries, data, unit, '`', '`')) {
        out << fmt::format("| {} |\n", fmt::join(row, " | "));
      }
      return;
    case ExportFormat::kOrgmode:
      out << fmt::format("| {}  |  {} |\n", header[0],
                         fmt::join(header.begin() + 1, header.end(), " |  "))
          << "|--+--+--+--+--|\n";
      for (const Cells& row : table_cells(entries, data, unit, '=', '=')) {
        out << fmt::format("| {}  |  {} |\n", row[0],
                           fmt::join(row.begin() + 1, row.end(), " |  "));
      }
      return;
    case ExportFormat::kAsciidoc: {
      out << "[cols=\"<,>,>,>,>\"]\n|===\n";
      for (const std::string& cell : header) out << "| " << cell << " \n";
      for (const Cells& row : table_cells(entries, data, unit, '`', '`')) {
        out << '\n';
        for (const std::string& cell : row) out << "| " << cell << " \n";
      }
      out << "|===\n";
      return;
    }
    case ExportFormat::kJson:
    case ExportFormat::kCsv:
      break;
  }
}

}  // namespace

void write_bench_export(const ExportData& data, ExportFormat format, std::ostream& out) {
  const std::vector<Entry> entries = entries_of(data);
  switch (format) {
    case ExportFormat::kJson:
      write_json(entries, data, out);
      return;
    case ExportFormat::kCsv:
      write_csv(entries, out);
      return;
    case ExportFormat::kMarkdown:
    case ExportFormat::kAsciidoc:
    case ExportFormat::kOrgmode:
      write_markup(entries, data, format, out);
      return;
  }
}

}  // namespace iobench::bench
