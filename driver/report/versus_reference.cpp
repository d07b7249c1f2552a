#include "driver/report/versus_reference.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <ostream>

namespace iobench::report {
namespace {

// Three significant digits, as hyperfine prints its ratios: 133, 13.3, 1.33.
std::string factor(double value) {
  if (value >= 100) return fmt::format("{:.0f}", value);
  if (value >= 10) return fmt::format("{:.1f}", value);
  return fmt::format("{:.2f}", value);
}

std::string seconds(double value) {
  if (std::isnan(value)) return "-";
  if (value >= 1) return fmt::format("{:.3f} s", value);
  if (value >= 1e-3) return fmt::format("{:.2f} ms", value * 1e3);
  return fmt::format("{:.0f} µs", value * 1e6);
}

// The interval in the direction the point estimate is said: a speed-up's interval is 1/ratio's.
std::string interval(const compare::Row& row, double confidence) {
  if (!row.ci) return "";
  double low = row.ci->low;
  double high = row.ci->high;
  if (row.ratio < 1) {
    low = 1 / row.ci->high;
    high = 1 / row.ci->low;
  }
  return fmt::format(" ({:.0f} % CI {}–{})", confidence * 100, factor(low), factor(high));
}

std::string p_text(const std::optional<double>& p) {
  if (!p) return "";
  if (*p < 0.001) return ", p < 0.001";
  return fmt::format(", p = {:.3f}", *p);
}

}  // namespace

std::string relative_speed(double ratio) {
  if (std::isnan(ratio) || ratio <= 0) return "-";
  if (ratio < 1) return factor(1 / ratio) + "× faster";
  if (ratio > 1) return factor(ratio) + "× slower";
  return "as fast";
}

VersusReference compare_with_reference(const results::RunSet& set, const std::string& reference,
                                       const compare::Options& options) {
  VersusReference versus;
  versus.reference = reference;
  versus.result.group_by = {"test", "input", "sink"};
  versus.result.alpha = options.alpha;
  versus.result.confidence = options.confidence;
  // The reference side: its groups keyed (input, sink).
  results::RunSet base;
  base.group_by = {"input", "sink"};
  std::vector<std::string> tests;
  for (const auto& group : set.groups) {
    if (group.key[0] == reference) {
      results::Group g = group;
      g.key = {group.key[1], group.key[2]};
      base.groups.push_back(std::move(g));
    } else if (std::find(tests.begin(), tests.end(), group.key[0]) == tests.end()) {
      tests.push_back(group.key[0]);
    }
  }
  for (const auto& group : base.groups) {
    if (group.ok_count() == 0)
      versus.missing.push_back(fmt::format("{} ({})", group.key[0], group.key[1]));
  }
  for (const auto& test : tests) {
    results::RunSet candidate;
    candidate.group_by = base.group_by;
    for (const auto& group : set.groups) {
      if (group.key[0] != test) continue;
      results::Group g = group;
      g.key = {group.key[1], group.key[2]};
      candidate.groups.push_back(std::move(g));
    }
    compare::Result one = compare::compare(base, candidate, options);
    versus.result.metric = one.metric;
    for (auto& row : one.rows) {
      row.key.insert(row.key.begin(), test);
      versus.result.rows.push_back(std::move(row));
    }
  }
  return versus;
}

void write_versus_reference(const VersusReference& versus, std::ostream& out) {
  // Rows by input and sink, in the run file's order.
  std::vector<std::pair<std::string, std::string>> places;
  std::map<std::pair<std::string, std::string>, std::vector<const compare::Row*>> rows;
  for (const auto& row : versus.result.rows) {
    const auto place = std::make_pair(row.key[1], row.key[2]);
    if (rows.count(place) == 0) places.push_back(place);
    rows[place].push_back(&row);
  }
  std::size_t width = 0;
  for (const auto& row : versus.result.rows) width = std::max(width, row.key[0].size());
  out << fmt::format("Against the reference '{}' (Mann-Whitney U test, alpha {}):\n",
                     versus.reference, versus.result.alpha);
  for (const auto& place : places) {
    const auto& first = *rows[place].front();
    out << fmt::format("  {}, {} sink: '{}' {} median ({} runs)\n", place.first, place.second,
                       versus.reference, seconds(first.base_median), first.base_n);
    for (const compare::Row* row : rows[place]) {
      std::string verdict;
      switch (row->verdict) {
        case compare::Verdict::kFaster:
        case compare::Verdict::kSlower:
          break;
        case compare::Verdict::kNoChange:
          verdict = ": no significant difference";
          break;
        case compare::Verdict::kTooFewRuns:
          verdict = ": too few runs to judge";
          break;
      }
      out << fmt::format("    {:<{}}  {}{}{}{}\n", row->key[0], width, relative_speed(row->ratio),
                         interval(*row, versus.result.confidence), p_text(row->p_value), verdict);
    }
  }
  for (const auto& place : versus.missing) {
    out << fmt::format("  {}: the reference has no ok run to compare with\n", place);
  }
}

}  // namespace iobench::report
