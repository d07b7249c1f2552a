#include "driver/report/export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "common/error.hpp"
#include "driver/report/answer.hpp"
#include "driver/report/hyperfine_json.hpp"
#include "driver/util/format.hpp"
#include "driver/util/json.hpp"

namespace iobench::report {

using util::number_or_null;

namespace {

using runfile::Metric;

// Decimals that show at least three significant digits of the column's smallest positive value.
int seconds_decimals(double smallest) {
  if (!(smallest > 0) || !std::isfinite(smallest)) return 3;
  const int decimals = 2 - static_cast<int>(std::floor(std::log10(smallest)));
  return std::clamp(decimals, 1, 6);
}

std::string fixed(double value, int decimals) {
  if (std::isnan(value)) return "-";
  return fmt::format("{:.{}f}", value, decimals);
}

std::string optional_fixed(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : "-";
}

// Marks a null sink in tables for people; the note below the table says what it means.
constexpr std::string_view kPipeVerifiedMark = "*";
constexpr std::string_view kPipeVerifiedNote =
    "* null sink: output verified only through the pipe run before it (a program may detect "
    "/dev/null and skip the work)";
// The derived counter figures a set can have: name, decimals, and the figure.
struct DerivedColumn {
  std::string_view tsv_name;
  std::string_view table_name;
  int decimals;
  std::optional<double> report::CounterFigures::*figure;
};
constexpr std::array<DerivedColumn, 4> kDerivedColumns{{
    {"syscalls_per_mib", "syscalls/MiB", 1, &report::CounterFigures::syscalls_per_mib},
    {"syscalls_per_line", "syscalls/line", 3, &report::CounterFigures::syscalls_per_line},
    {"instructions_per_byte", "instr/byte", 2, &report::CounterFigures::instructions_per_byte},
    {"ipc", "IPC", 2, &report::CounterFigures::ipc},
}};

// The derived columns that some group of the summary has a figure for.
std::vector<const DerivedColumn*> derived_columns(const report::Summary& s) {
  std::vector<const DerivedColumn*> out;
  for (const DerivedColumn& d : kDerivedColumns) {
    if (std::any_of(s.groups.begin(), s.groups.end(),
                    [&](const auto& g) { return (g.counter_figures.*d.figure).has_value(); })) {
      out.push_back(&d);
    }
  }
  return out;
}

// The relative column of a table for people: "reference", "133× faster", "1.36× slower".
std::string relative_label(const report::GroupStats& g) {
  if (g.is_reference) return "reference";
  return g.relative ? util::format_relative(*g.relative) : "-";
}

// The headline table of pretty and markdown output.
Table headline_table(const report::Summary& s, TimeUnit unit) {
  const runfile::RunSet& set = *s.set;
  // -u: the time columns in its unit (kAuto: seconds, as `run` prints them).
  const double scale = unit == TimeUnit::kMillisecond   ? 1e3
                       : unit == TimeUnit::kMicrosecond ? 1e6
                                                        : 1;
  const std::string in = unit == TimeUnit::kAuto ? "s" : std::string(unit_name(unit));
  Table t;
  for (const auto& column : set.group_by) {
    t.header.push_back(column);
    t.numeric.push_back(false);
  }
  const std::vector<std::string> stats_header{"n",       "elapsed " + in, "± MAD",        "min",
                                              "max",     "user " + in,    "system " + in, "cpu %",
                                              "mem MiB", "MB/s",          "relative"};
  for (const auto& h : stats_header) {
    t.header.push_back(h);
    t.numeric.push_back(true);
  }
  const std::vector<Metric> counters = set.counter_metrics();
  const std::vector<const DerivedColumn*> derived = derived_columns(s);
  if (s.shows_waited_cpu) {
    t.header.emplace_back("waited CPU");
    t.numeric.push_back(true);
  }
  for (Metric m : counters) {
    t.header.emplace_back(metric_name(m));
    t.numeric.push_back(true);
  }
  for (const DerivedColumn* d : derived) {
    t.header.emplace_back(d->table_name);
    t.numeric.push_back(true);
  }
  double smallest = std::numeric_limits<double>::infinity();
  for (const auto& g : s.groups) {
    const auto& el = g.metric(Metric::kElapsed);
    if (el.n > 0 && el.median > 0) smallest = std::min(smallest, el.median);
  }
  const int sd = seconds_decimals(smallest * scale);
  const std::size_t sink_key = set.key_index("sink");
  const std::size_t test_key = set.key_index("test");
  for (const auto& g : s.groups) {
    std::vector<std::string> row(g.group->key.begin(), g.group->key.end());
    if (g.verified_through_pipe_run) row[sink_key] += kPipeVerifiedMark;
    if (test_key < row.size()) row[test_key] = marked_test(row[test_key], *g.group);
    const auto& el = g.metric(Metric::kElapsed);
    row.push_back(std::to_string(el.n));
    for (const double seconds : {el.median, el.mad, el.min, el.max, g.metric(Metric::kUser).median,
                                 g.metric(Metric::kSystem).median}) {
      row.push_back(fixed(seconds * scale, sd));
    }
    row.push_back(fixed(g.metric(Metric::kCpuPct).median, 1));
    row.push_back(fixed(g.metric(Metric::kMem).median / 1024, 1));
    row.push_back(optional_fixed(g.mb_per_s, 1));
    row.push_back(relative_label(g));
    if (s.shows_waited_cpu) row.push_back(optional_fixed(g.waited_cpus, 2));
    for (Metric m : counters) row.push_back(fixed(g.metric(m).median, 0));
    for (const DerivedColumn* d : derived) {
      row.push_back(optional_fixed(g.counter_figures.*(d->figure), d->decimals));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

constexpr std::array<int, runfile::kMetricCount> kTsvDecimals{6, 6, 6, 2, 1, 1, 1,
                                                              1, 1, 1, 1, 1, 1, 1};

// The time metrics always; a counter only when some file has its column.
bool reported(const runfile::RunSet& set, std::size_t metric) {
  return metric < runfile::kTimeMetricCount || set.has_metric[metric];
}

void write_summary_tsv(const report::Summary& s, std::ostream& out) {
  const runfile::RunSet& set = *s.set;
  Table t;
  for (const auto& column : set.group_by) t.header.push_back(column);
  t.header.emplace_back("n");
  for (std::size_t m = 0; m < runfile::kMetricCount; ++m) {
    if (!reported(set, m)) continue;
    for (std::string_view op : {"median", "min", "max", "mad", "mean", "stdev"}) {
      t.header.push_back(fmt::format("{}_{}", runfile::kMetricNames[m], op));
    }
  }
  for (std::string_view h :
       {"mb_per_s", "relative", "excluded", "outliers", "elapsed_ci95_low", "elapsed_ci95_high"}) {
    t.header.emplace_back(h);
  }
  const std::vector<const DerivedColumn*> derived = derived_columns(s);
  for (const DerivedColumn* d : derived) t.header.emplace_back(d->tsv_name);
  if (set.has_disturbance) {
    for (std::string_view h : {"others_cpu_s_median", "steal_s_median", "disturbed",
                               "wait_cpu_s_median", "figures_of"}) {
      t.header.emplace_back(h);
    }
  }
  for (const auto& g : s.groups) {
    std::vector<std::string> row(g.group->key.begin(), g.group->key.end());
    row.push_back(std::to_string(g.metric(Metric::kElapsed).n));
    for (std::size_t m = 0; m < runfile::kMetricCount; ++m) {
      if (!reported(set, m)) continue;
      const stats::SampleStats& st = g.metrics[m];
      const int d = kTsvDecimals[m];
      for (double v : {st.median, st.min, st.max, st.mad, st.mean, st.stddev}) {
        row.push_back(trimmed(v, d));
      }
    }
    row.push_back(g.mb_per_s ? trimmed(*g.mb_per_s, 2) : "");
    row.push_back(g.relative ? trimmed(*g.relative, 4) : "");
    row.push_back(std::to_string(g.group->excluded_count()));
    row.push_back(std::to_string(g.elapsed_outliers));
    const stats::MedianInterval& ci = g.elapsed_ci95;
    row.push_back(trimmed(ci.median - ci.half_width, 6));
    row.push_back(trimmed(ci.median + ci.half_width, 6));
    for (const DerivedColumn* d : derived) {
      const auto& figure = g.counter_figures.*(d->figure);
      row.push_back(figure ? trimmed(*figure, 4) : "");
    }
    if (set.has_disturbance) {
      row.push_back(trimmed(g.others_cpu_s_median, 6));
      row.push_back(trimmed(g.steal_s_median, 6));
      row.push_back(
          std::to_string(g.group->rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)]));
      row.push_back(trimmed(g.wait_cpu_s_median, 6));
      row.emplace_back(g.group->from_disturbed_runs ? "disturbed" : "ok");
    }
    t.rows.push_back(std::move(row));
  }
  write_table(t, Format::kTsv, out);
}

nlohmann::ordered_json stats_json(const stats::SampleStats& st) {
  nlohmann::ordered_json j;
  j["n"] = st.n;
  j["median"] = number_or_null(st.median);
  j["min"] = number_or_null(st.min);
  j["max"] = number_or_null(st.max);
  j["mad"] = number_or_null(st.mad);
  j["mean"] = number_or_null(st.mean);
  j["stdev"] = number_or_null(st.stddev);
  return j;
}

// The counters' medians and figures, and the disturbance's, where the set has their columns.
void add_counters_and_disturbance(const runfile::RunSet& set, const report::GroupStats& g,
                                  nlohmann::ordered_json& extra) {
  const runfile::Group& group = *g.group;
  if (set.has_disturbance) {
    extra["disturbance"] = {
        {"others_cpu_s_median", number_or_null(g.others_cpu_s_median)},
        {"steal_s_median", number_or_null(g.steal_s_median)},
        {"disturbed", group.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)]},
        {"wait_cpu_s_median", number_or_null(g.wait_cpu_s_median)},
        // Every run disturbed: the figures are the disturbed runs' (docs/driver.md).
        {"figures_of", group.from_disturbed_runs ? "disturbed" : "ok"}};
  }
  const std::vector<Metric> counters = set.counter_metrics();
  if (!counters.empty()) {
    nlohmann::ordered_json medians = nlohmann::ordered_json::object();
    for (Metric m : counters)
      medians[std::string(metric_name(m))] = number_or_null(g.metric(m).median);
    extra["counters"] = std::move(medians);
    nlohmann::ordered_json figures = nlohmann::ordered_json::object();
    for (const DerivedColumn& d : kDerivedColumns) {
      const auto& figure = g.counter_figures.*(d.figure);
      figures[std::string(d.tsv_name)] = figure ? nlohmann::ordered_json(*figure) : nullptr;
    }
    extra["counter_figures"] = std::move(figures);
    extra["input_lines"] = g.input_lines ? nlohmann::ordered_json(*g.input_lines) : nullptr;
  }
}

// iobench's fields of a group's result: its key, what was left out, and every statistic.
nlohmann::ordered_json summary_extras(const runfile::RunSet& set, const report::GroupStats& g) {
  const runfile::Group& group = *g.group;
  nlohmann::ordered_json extra;
  nlohmann::ordered_json key = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < set.group_by.size(); ++k) key[set.group_by[k]] = group.key[k];
  extra["group"] = std::move(key);
  extra["n"] = g.metric(Metric::kElapsed).n;
  nlohmann::ordered_json excluded = nlohmann::ordered_json::object();
  for (std::size_t st = 1; st < runfile::kStatusCount; ++st) {
    if (group.rows[st] > 0) excluded[std::string(runfile::kStatusNames[st])] = group.rows[st];
  }
  extra["excluded"] = std::move(excluded);
  extra["elapsed_outliers"] = g.elapsed_outliers;
  extra["elapsed_ci95"] = {number_or_null(g.elapsed_ci95.median - g.elapsed_ci95.half_width),
                           number_or_null(g.elapsed_ci95.median + g.elapsed_ci95.half_width)};
  extra["input_bytes"] = g.input_bytes ? nlohmann::ordered_json(*g.input_bytes) : nullptr;
  extra["mb_per_s"] = g.mb_per_s ? nlohmann::ordered_json(*g.mb_per_s) : nullptr;
  extra["relative"] = g.relative ? nlohmann::ordered_json(*g.relative) : nullptr;
  if (group.unverified) {
    extra["verified"] = false;
  } else if (g.verified_through_pipe_run) {
    extra["verified"] = "through the pipe run only";
  }
  const std::vector<std::string> marks = group_marks(group);
  if (!marks.empty()) extra["marks"] = marks;
  add_counters_and_disturbance(set, g, extra);
  nlohmann::ordered_json per_metric;
  for (std::size_t m = 0; m < runfile::kMetricCount; ++m) {
    if (!reported(set, m)) continue;
    per_metric[std::string(runfile::kMetricNames[m])] = stats_json(g.metrics[m]);
  }
  extra["stats"] = std::move(per_metric);
  extra["user_times"] = group.metric(Metric::kUser);
  extra["system_times"] = group.metric(Metric::kSystem);
  extra["cpu_pct"] = group.metric(Metric::kCpuPct);
  extra["mem_kib"] = group.metric(Metric::kMem);
  return extra;
}

// hyperfine's --export-json shape, one result per group: the test its command, the other keys
// its parameters.
void write_summary_json(const report::Summary& s, std::ostream& out) {
  const runfile::RunSet& set = *s.set;
  const std::size_t test_key = set.key_index("test");
  std::vector<HyperfineResult> results;
  results.reserve(s.groups.size());
  for (const auto& g : s.groups) {
    const runfile::Group& group = *g.group;
    const auto& el = g.metric(Metric::kElapsed);
    HyperfineResult r;
    r.command =
        test_key != std::string_view::npos ? group.key[test_key] : report::group_label(set, group);
    r.mean_s = el.mean;
    r.stddev_s = el.stddev;
    r.median_s = el.median;
    r.user_mean_s = g.metric(Metric::kUser).mean;
    r.system_mean_s = g.metric(Metric::kSystem).mean;
    r.min_s = el.min;
    r.max_s = el.max;
    r.times_s = group.metric(Metric::kElapsed);
    r.exit_codes = group.exit_codes;
    r.max_rss_kib = group.metric(Metric::kMem);
    for (std::size_t k = 0; k < set.group_by.size(); ++k) {
      if (k != test_key) r.parameters.emplace_back(set.group_by[k], group.key[k]);
    }
    r.iobench = summary_extras(set, g);
    results.push_back(std::move(r));
  }
  // The answer, the same numbers `summarize` and `run` print first and last (answer.hpp).
  nlohmann::ordered_json extras;
  extras["answer"] = answers_json(answers(s));
  write_hyperfine_json(results, extras, out);
}

}  // namespace

void write_summary(const report::Summary& summary, Format format, std::ostream& out,
                   const TableView& view) {
  switch (format) {
    case Format::kTsv:
      write_summary_tsv(summary, out);
      return;
    case Format::kJson:
      write_summary_json(summary, out);
      return;
    case Format::kPretty:
    case Format::kMarkdown: {
      // The answer's cut says where its every row is: tsv has no answer, json has.
      const std::string answer_hint = view.all_rows_hint == TableView{}.all_rows_hint
                                          ? "all of them with --format json"
                                          : view.all_rows_hint;
      if (view.answer == AnswerAt::kFirst)
        write_answers(answers(summary), format, view.top_rows, answer_hint, out);
      write_table_sections(headline_table(summary, view.time_unit), format,
                           input_sink_columns(summary.set->group_by), view, out);
      const bool any_null = std::any_of(summary.groups.begin(), summary.groups.end(),
                                        [](const auto& g) { return g.verified_through_pipe_run; });
      if (any_null) out << (format == Format::kMarkdown ? "\n" : "") << kPipeVerifiedNote << '\n';
      std::vector<const runfile::Group*> groups;
      for (const auto& g : summary.groups) groups.push_back(g.group);
      std::vector<std::string> notes = mark_notes(groups);
      if (const std::string split = split_note(*summary.set, true); !split.empty()) {
        notes.push_back(split);
      }
      for (const std::string& note : notes) {
        out << (format == Format::kMarkdown ? "\n" : "") << note << '\n';
      }
      if (view.answer == AnswerAt::kLast) {
        out << '\n';
        write_answers(answers(summary), format, view.top_rows, answer_hint, out);
      }
      return;
    }
  }
}

void write_warnings(const std::vector<std::string>& warnings, std::ostream& out) {
  for (const auto& w : warnings) out << "iobench: warning: " << w << '\n';
}

}  // namespace iobench::report
