#include "driver/report/compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "common/error.hpp"
#include "driver/report/summary.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/stats/mann_whitney.hpp"
#include "driver/util/format.hpp"

namespace iobench::report {
namespace {

std::string label(const std::vector<std::string>& key) {
  return util::format_group_label(key, "test");
}

// Fewest runs a side with which a difference can be significant at alpha.
std::size_t runs_needed(double alpha) {
  std::size_t k = 1;
  while (stats::smallest_p_value(k, k) > alpha && k < 1000) ++k;
  return k;
}

std::string percent_change(double ratio) {
  if (std::isnan(ratio)) return "-";
  const double pct = (ratio - 1) * 100;
  if (std::fabs(pct) < 0.05) return "0.0%";
  return fmt::format("{:+.1f}%", pct);
}

std::string format_p(const std::optional<double>& p) {
  return p ? p_text(*p) : "-";
}

std::string format_value(double v, runfile::Metric metric) {
  if (std::isnan(v)) return "-";
  if (metric == runfile::Metric::kMem) return util::format_kib(v);
  if (metric == runfile::Metric::kCpuPct) return fmt::format("{:.1f}%", v);
  if (is_counter(metric)) return report::trimmed(v, 1);
  return util::format_seconds(v);
}

}  // namespace

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSlower:
      return "slower";
    case Verdict::kFaster:
      return "faster";
    case Verdict::kNoChange:
      return "no change";
    case Verdict::kTooFewRuns:
      return "too few runs";
  }
  return "";
}

Row compare_samples(std::span<const double> base, std::span<const double> candidate,
                    const CompareOptions& options) {
  const std::span<const double> a = base;
  const std::span<const double> b = candidate;
  const bool higher_is_better = false;  // every metric here is a cost
  Row row;
  row.base_n = a.size();
  row.new_n = b.size();
  row.base_median = stats::median(a);
  row.new_median = stats::median(b);
  // The estimate the interval and the U test go with: the ratio of medians can fall outside the
  // interval, and even lie on the other side of 1 from what the test found (docs/reports.md,
  // `compare`).
  row.ratio = stats::hodges_lehmann_ratio(a, b);
  if (std::isnan(row.ratio) && row.base_median > 0) row.ratio = row.new_median / row.base_median;
  if (!a.empty() && !b.empty()) row.p_value = stats::mann_whitney_u(a, b).p_value;
  row.ci = stats::ratio_confidence_interval(a, b, options.confidence);
  const double smallest = stats::smallest_p_value(a.size(), b.size());
  if (a.empty() || b.empty() || smallest > options.alpha) {
    row.verdict = Verdict::kTooFewRuns;
  } else if (*row.p_value < options.alpha && !std::isnan(row.ratio) && row.ratio != 1) {
    row.verdict = (row.ratio > 1) != higher_is_better ? Verdict::kSlower : Verdict::kFaster;
  } else {
    row.verdict = Verdict::kNoChange;
  }
  return row;
}

std::string factor_phrase(const Row& row) {
  if (!(row.ratio > 0) || !std::isfinite(row.ratio)) return "no comparison (no time to divide by)";
  const bool faster = row.ratio < 1;
  std::string phrase =
      fmt::format("{}× {}", util::format_factor(faster ? 1 / row.ratio : row.ratio),
                  faster ? "faster" : "slower");
  if (row.ci && row.ci->low > 0) {
    const double low = faster ? 1 / row.ci->high : row.ci->low;
    const double high = faster ? 1 / row.ci->low : row.ci->high;
    phrase += fmt::format(" [{}, {}]", util::format_factor(low), util::format_factor(high));
  }
  return phrase;
}

std::string verdict_phrase(const Row& row) {
  if (!(row.ratio > 0) || !std::isfinite(row.ratio)) return factor_phrase(row);
  std::string phrase = factor_phrase(row) + p_phrase(row.p_value);
  if (row.verdict == Verdict::kNoChange) phrase += " (not a significant difference)";
  if (row.verdict == Verdict::kTooFewRuns) phrase += " (too few runs to judge)";
  return phrase;
}

std::string p_text(double p_value) {
  return p_value < 0.001 ? std::string("< 0.001") : fmt::format("{:.3f}", p_value);
}

std::string ratio_text(double ratio, const std::optional<stats::Interval>& interval) {
  if (!std::isfinite(ratio)) return "";
  std::string text = fmt::format("{:.3f}", ratio);
  if (interval) text += fmt::format(" [{:.3f}, {:.3f}]", interval->low, interval->high);
  return text;
}

std::string p_phrase(const std::optional<double>& p_value) {
  if (!p_value) return "";
  const std::string text = p_text(*p_value);
  return text.starts_with('<') ? ", p " + text : ", p = " + text;  // "< 0.001" is a relation
}

Result compare(const runfile::RunSet& base, const runfile::RunSet& candidate,
               const CompareOptions& options) {
  if (!(options.alpha > 0 && options.alpha < 1)) {
    throw Error(fmt::format("--alpha {}: must be between 0 and 1", options.alpha));
  }
  Result result;
  result.group_by = base.group_by;
  result.metric = std::string(runfile::kMetricNames[runfile::index(options.metric)]);
  result.alpha = options.alpha;
  result.confidence = options.confidence;
  std::map<std::vector<std::string>, const runfile::Group*> new_groups;
  for (const auto& g : candidate.groups) new_groups.emplace(g.key, &g);
  std::map<std::vector<std::string>, bool> seen;
  std::size_t unreliable = 0;

  for (const auto& bg : base.groups) {
    const auto found = new_groups.find(bg.key);
    if (found == new_groups.end()) {
      result.warnings.push_back(
          fmt::format("{}: only in the base runs, not compared", label(bg.key)));
      continue;
    }
    seen[bg.key] = true;
    const runfile::Group& ng = *found->second;
    const auto& a = bg.metric(options.metric);
    const auto& b = ng.metric(options.metric);
    Row row = compare_samples(a, b, options);
    row.key = bg.key;
    if (row.verdict == Verdict::kTooFewRuns) {
      result.warnings.push_back(fmt::format(
          "{}: too few runs to judge ({} base, {} new): with so few the smallest possible "
          "p-value is {:.3f}, above alpha {}; run at least {} each",
          label(bg.key), a.size(), b.size(), stats::smallest_p_value(a.size(), b.size()),
          options.alpha, runs_needed(options.alpha)));
    }
    if (row.verdict != Verdict::kTooFewRuns && (a.size() < 9 || b.size() < 9)) ++unreliable;
    if (options.fail_on_regression_pct && row.verdict == Verdict::kSlower &&
        (row.ratio - 1) * 100 > *options.fail_on_regression_pct) {
      row.regression = true;
      result.failed = true;
    }
    result.rows.push_back(std::move(row));
  }
  for (const auto& ng : candidate.groups) {
    if (!seen.count(ng.key)) {
      result.warnings.push_back(
          fmt::format("{}: only in the new runs, not compared", label(ng.key)));
    }
  }
  if (unreliable > 0) {
    result.warnings.push_back(fmt::format(
        "{} comparison{} rest on fewer than 9 runs a side; the U test has little power there "
        "(compare.py recommends 9 or more repetitions)",
        unreliable, unreliable == 1 ? "" : "s"));
  }
  if (options.fail_on_regression_pct) {
    for (const Row& row : result.rows) {
      if (row.regression) {
        result.warnings.push_back(fmt::format("regression: {} is {} {}{}, over the {}% allowed",
                                              label(row.key), percent_change(row.ratio),
                                              result.metric, p_phrase(row.p_value),
                                              *options.fail_on_regression_pct));
      } else if (row.verdict == Verdict::kTooFewRuns &&
                 row.ratio > 1 + *options.fail_on_regression_pct / 100) {
        result.warnings.push_back(
            fmt::format("{}: {} {} but too few runs to judge; not counted as a regression",
                        label(row.key), percent_change(row.ratio), result.metric));
      }
    }
  }
  return result;
}

Result compare_files(const std::vector<std::filesystem::path>& base,
                     const std::vector<std::filesystem::path>& candidate,
                     const std::vector<std::string>& group_by, const CompareOptions& options) {
  // By default, as plot and the report group: runs of a condition the files differ in (a warm
  // base, a cold new) are never compared across it, nor pooled within a side.
  runfile::ReadOptions read = runfile::cell_grouping();
  read.group_by = group_by;
  read.allow_missing_columns = group_by.empty();
  const std::vector<runfile::RunSet> sides = runfile::read_run_sides({base, candidate}, read);
  const runfile::RunSet& b = sides[0];
  const runfile::RunSet& n = sides[1];
  Result result = compare(b, n, options);
  if (const std::string split = split_note({&b, &n}, true); !split.empty()) {
    result.warnings.insert(result.warnings.begin(), split);
  }
  for (const auto* set : {&b, &n}) {
    for (const auto& g : set->groups) {
      if (g.excluded_count() > 0) {
        result.warnings.insert(
            result.warnings.begin(),
            fmt::format("{}: {} of {} {} runs excluded (not ok)", label(g.key), g.excluded_count(),
                        g.excluded_count() + g.ok_count(), set == &b ? "base" : "new"));
      }
    }
  }
  return result;
}

namespace {

void write_json(const Result& result, std::ostream& out) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const Row& row : result.rows) {
    nlohmann::ordered_json j;
    nlohmann::ordered_json key = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < result.group_by.size(); ++k) key[result.group_by[k]] = row.key[k];
    j["group"] = std::move(key);
    j["base_n"] = row.base_n;
    j["new_n"] = row.new_n;
    j["base_median"] = row.base_median;  // NaN is written as null
    j["new_median"] = row.new_median;
    j["ratio"] = row.ratio;
    j["ci_low"] = row.ci ? nlohmann::ordered_json(row.ci->low) : nullptr;
    j["ci_high"] = row.ci ? nlohmann::ordered_json(row.ci->high) : nullptr;
    j["p_value"] = row.p_value ? nlohmann::ordered_json(*row.p_value) : nullptr;
    j["significant"] = row.verdict == Verdict::kTooFewRuns
                           ? nlohmann::ordered_json()
                           : nlohmann::ordered_json(row.verdict == Verdict::kSlower ||
                                                    row.verdict == Verdict::kFaster);
    j["verdict"] = std::string(to_string(row.verdict));
    j["regression"] = row.regression;
    rows.push_back(std::move(j));
  }
  nlohmann::ordered_json doc;
  doc["metric"] = result.metric;
  doc["alpha"] = result.alpha;
  doc["confidence"] = result.confidence;
  doc["comparisons"] = std::move(rows);
  out << doc.dump(2) << '\n';
}

// The group-by columns first, left-aligned.
report::Table key_columns(const Result& result) {
  report::Table t;
  t.header = result.group_by;
  t.numeric.assign(result.group_by.size(), false);
  return t;
}

void write_tsv(const Result& result, runfile::Metric metric, std::ostream& out) {
  report::Table t = key_columns(result);
  for (const char* h :
       {"base_median", "new_median", "ratio", "ci_low", "ci_high", "p_value", "significant"}) {
    t.header.emplace_back(h);
  }
  const int decimals =
      metric == runfile::Metric::kMem || metric == runfile::Metric::kCpuPct ? 2 : 6;
  for (const Row& row : result.rows) {
    std::vector<std::string> cells = row.key;
    cells.push_back(report::trimmed(row.base_median, decimals));
    cells.push_back(report::trimmed(row.new_median, decimals));
    cells.push_back(report::trimmed(row.ratio, 4));
    cells.push_back(row.ci ? report::trimmed(row.ci->low, 4) : "");
    cells.push_back(row.ci ? report::trimmed(row.ci->high, 4) : "");
    cells.push_back(row.p_value ? report::trimmed(*row.p_value, 6) : "");
    cells.emplace_back(row.verdict == Verdict::kTooFewRuns ? "too_few_runs"
                       : row.verdict == Verdict::kNoChange ? "no"
                                                           : "yes");
    t.rows.push_back(std::move(cells));
  }
  report::write_table(t, report::Format::kTsv, out);
}

// One line of the pretty and markdown tables: the figures, and the verdict in words.
std::vector<std::string> row_in_words(const Row& row, runfile::Metric metric, double alpha) {
  std::vector<std::string> cells = row.key;
  cells.push_back(fmt::format("{}/{}", row.base_n, row.new_n));
  cells.push_back(format_value(row.base_median, metric));
  cells.push_back(format_value(row.new_median, metric));
  cells.push_back(percent_change(row.ratio));
  cells.push_back(
      row.ci ? fmt::format("{} … {}", percent_change(row.ci->low), percent_change(row.ci->high))
             : "-");
  cells.push_back(format_p(row.p_value));
  std::string verdict(to_string(row.verdict));
  if (row.regression) verdict += " (regression)";
  if (row.verdict == Verdict::kTooFewRuns) {
    verdict += fmt::format(" to judge (need {}+ a side)", runs_needed(alpha));
  }
  cells.push_back(std::move(verdict));
  return cells;
}

// A table cut to its first rows shows what matters first: the slowdowns, the largest first
// (docs/reports.md, "Tables at scale"); an uncut one keeps the base file's order.
std::vector<const Row*> rows_in_table_order(const Result& result, const report::TableView& view) {
  std::vector<const Row*> rows;
  rows.reserve(result.rows.size());
  for (const Row& row : result.rows) rows.push_back(&row);
  if (view.top_rows == 0) return rows;
  std::stable_sort(rows.begin(), rows.end(), [](const Row* a, const Row* b) {
    const bool a_slower = a->verdict == Verdict::kSlower;
    const bool b_slower = b->verdict == Verdict::kSlower;
    if (a_slower != b_slower) return a_slower;
    return a_slower && a->ratio > b->ratio;
  });
  return rows;
}

// Pretty and markdown: the table, then a one-line tally of the verdicts.
void write_in_words(const Result& result, report::Format format, runfile::Metric metric,
                    const report::TableView& view, std::ostream& out) {
  report::Table t = key_columns(result);
  for (const char* h : {"runs", "base", "new", "change"}) {
    t.header.emplace_back(h);
    t.numeric.push_back(true);
  }
  t.header.push_back(fmt::format("{:.0f}% CI", result.confidence * 100));
  t.numeric.push_back(true);
  t.header.emplace_back("p");
  t.numeric.push_back(true);
  t.header.emplace_back("verdict");
  t.numeric.push_back(false);
  std::map<Verdict, std::size_t> tally;
  for (const Row* row : rows_in_table_order(result, view)) {
    ++tally[row->verdict];
    t.rows.push_back(row_in_words(*row, metric, result.alpha));
  }
  report::write_table_sections(t, format, report::input_sink_columns(result.group_by), view, out);
  std::vector<std::string> parts;
  for (Verdict v : {Verdict::kSlower, Verdict::kFaster, Verdict::kNoChange, Verdict::kTooFewRuns}) {
    if (tally[v] > 0) parts.push_back(fmt::format("{} {}", tally[v], to_string(v)));
  }
  out << (format == report::Format::kMarkdown ? "\n" : "")
      << fmt::format(
             "{} {}: {} (Mann-Whitney U, alpha {}; change: Hodges-Lehmann new / base - 1)\n",
             result.rows.size(), result.rows.size() == 1 ? "comparison" : "comparisons",
             parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", ")),
             result.alpha);
}

}  // namespace

void write_result(const Result& result, report::Format format, std::ostream& out,
                  const report::TableView& view) {
  const runfile::Metric metric =
      runfile::parse_metric(result.metric).value_or(runfile::Metric::kElapsed);
  if (format == report::Format::kJson) {
    write_json(result, out);
  } else if (format == report::Format::kTsv) {
    write_tsv(result, metric, out);
  } else {
    write_in_words(result, format, metric, view, out);
  }
}

}  // namespace iobench::report
