#include "driver/report/versus_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>

#include "driver/util/format.hpp"

namespace iobench::report {

std::string interval_phrase(const report::Row& row) {
  if (!(row.ratio > 0) || !std::isfinite(row.ratio)) return "no comparison (no time to divide by)";
  // Faster: the factor is 1/ratio and its interval [1/high, 1/low]; slower: ratio, [low, high].
  const bool faster = row.ratio < 1;
  std::string phrase = fmt::format("{}× {}", format_factor(faster ? 1 / row.ratio : row.ratio),
                                   faster ? "faster" : "slower");
  const bool interval = row.ci && row.ci->low > 0;
  if (interval) {
    const double low = faster ? 1 / row.ci->high : row.ci->low;
    const double high = faster ? 1 / row.ci->low : row.ci->high;
    phrase += fmt::format(" [{}, {}]", format_factor(low), format_factor(high));
  }
  if (row.p_value) {
    phrase += *row.p_value < 0.001 ? std::string(", p < 0.001")
                                   : fmt::format(", p = {:.3f}", *row.p_value);
  }
  if (row.verdict == report::Verdict::kTooFewRuns) return "too few runs to judge (" + phrase + ")";
  const bool holds_one = interval && row.ci->low <= 1 && row.ci->high >= 1;
  if (row.verdict == report::Verdict::kNoChange || holds_one) {
    return "no significant difference (" + phrase + ")";
  }
  return phrase;
}

VersusReference compare_with_reference(const runfile::RunSet& set, const std::string& reference,
                                       const report::CompareOptions& options) {
  VersusReference versus;
  versus.reference = reference;
  versus.result.group_by = {"test", "input", "sink"};
  versus.result.alpha = options.alpha;
  versus.result.confidence = options.confidence;
  // The reference side: its groups keyed (input, sink).
  runfile::RunSet base;
  base.group_by = {"input", "sink"};
  std::vector<std::string> tests;
  for (const auto& group : set.groups) {
    if (group.key[0] == reference) {
      runfile::Group g = group;
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
    runfile::RunSet candidate;
    candidate.group_by = base.group_by;
    for (const auto& group : set.groups) {
      if (group.key[0] != test) continue;
      runfile::Group g = group;
      g.key = {group.key[1], group.key[2]};
      candidate.groups.push_back(std::move(g));
    }
    report::Result one = report::compare(base, candidate, options);
    versus.result.metric = one.metric;
    for (auto& row : one.rows) {
      row.key.insert(row.key.begin(), test);
      versus.result.rows.push_back(std::move(row));
    }
  }
  return versus;
}

void write_versus_reference(const VersusReference& versus, std::ostream& out,
                            const VersusStyle& style) {
  // Rows by input and sink, in the run file's order.
  std::vector<std::pair<std::string, std::string>> places;
  std::map<std::pair<std::string, std::string>, std::vector<const report::Row*>> rows;
  for (const auto& row : versus.result.rows) {
    const auto place = std::make_pair(row.key[1], row.key[2]);
    if (rows.count(place) == 0) places.push_back(place);
    rows[place].push_back(&row);
  }
  if (style.by_time) {
    for (auto& [place, list] : rows) {
      std::stable_sort(list.begin(), list.end(), [](const report::Row* a, const report::Row* b) {
        return a->new_median < b->new_median;
      });
    }
  }
  std::size_t width = 0;
  for (const auto& row : versus.result.rows) width = std::max(width, display_width(row.key[0]));
  out << fmt::format(
      "Against the reference '{}' (median over the reference's, its {:g} % interval in brackets; "
      "Mann-Whitney U test, alpha {}{}):\n",
      versus.reference, versus.result.confidence * 100, versus.result.alpha,
      style.figures.empty() ? "" : "; " + style.figures);
  for (const auto& place : places) {
    const auto& first = *rows[place].front();
    // An input-less run's input column is empty: its place is its sink alone.
    out << fmt::format("  {}{} sink: '{}' {} median ({} runs)\n",
                       place.first.empty() ? "" : place.first + ", ", place.second,
                       versus.reference, format_time(first.base_median, style.time_unit),
                       first.base_n);
    for (const report::Row* row : rows[place]) {
      const std::string& name = row->key[0];
      out << fmt::format("    {}{}  {}\n", name, std::string(width - display_width(name), ' '),
                         interval_phrase(*row));
    }
  }
  for (const auto& place : versus.missing) {
    out << fmt::format("  {}: the reference has no ok run to compare with\n", place);
  }
}

}  // namespace iobench::report
