#include "driver/report/plot_sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/error.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/svg.hpp"
#include "driver/util/format.hpp"

namespace iobench::plot {

using results::Metric;
using svg::count_unit;
using svg::decimals_for;
using svg::shorten;
using svg::text_width;
using svg::Unit;

std::vector<Section> group_sections(const results::RunSet& set, Metric metric) {
  const std::size_t test_key = set.key_index("test");
  const std::size_t input_key = set.key_index("input");
  const std::size_t sink_key = set.key_index("sink");
  if (test_key == std::string_view::npos) throw Error("plot: the runs have no test column");
  // The fastest (the reference) and the relative figures are the summary's, for this metric.
  summary::Options summary_options;
  summary_options.relative_metric = metric;
  const summary::Summary summary = summary::summarize(set, summary_options);
  // Sections by input and sink, in order of first appearance; rows fastest first.
  std::vector<Section> sections;
  std::map<std::pair<std::string, std::string>, std::size_t> section_index;
  for (std::size_t i = 0; i < set.groups.size(); ++i) {
    const results::Group& g = set.groups[i];
    const summary::GroupStats& stats = summary.groups[i];  // the summary keeps the set's order
    const std::string input = input_key != std::string_view::npos ? g.key[input_key] : "";
    const std::string sink = sink_key != std::string_view::npos ? g.key[sink_key] : "";
    auto [it, inserted] = section_index.emplace(std::make_pair(input, sink), sections.size());
    if (inserted) {
      std::string title;
      if (!input.empty()) title += "input " + input;
      if (!sink.empty()) title += (title.empty() ? "sink " : " · sink ") + sink;
      Section section;
      section.title = title.empty() ? "(no input or sink column)" : title;
      sections.push_back(std::move(section));
    }
    Row row{&g,
            g.key[test_key],
            stats.metric(metric),
            stats.metric(Metric::kUser).median,
            stats.metric(Metric::kSystem).median,
            stats.is_reference,
            stats.relative};
    sections[it->second].rows.push_back(std::move(row));
  }
  if (sections.empty()) throw Error("plot: no runs to plot");
  for (auto& section : sections) {
    std::stable_sort(section.rows.begin(), section.rows.end(), [](const Row& a, const Row& b) {
      const bool an = a.value.n > 0;
      const bool bn = b.value.n > 0;
      if (an != bn) return an;
      return an && a.value.median < b.value.median;
    });
  }
  return sections;
}

ColumnWidths scale_sections(std::vector<Section>& sections, Metric metric) {
  const bool mem = metric == Metric::kMem;
  const bool time = metric == Metric::kElapsed;  // with the user + system strip
  ColumnWidths widths;
  widths.relative = text_width("fastest", kFont);
  for (auto& section : sections) {
    double smallest = std::numeric_limits<double>::infinity();
    for (const auto& row : section.rows) {
      if (row.value.n == 0) continue;
      section.top = std::max(section.top, row.value.max);
      if (time) section.top = std::max(section.top, row.user_median + row.system_median);
      if (row.value.median > 0) smallest = std::min(smallest, row.value.median);
      if (row.value.min > 0) {
        section.bottom =
            section.bottom > 0 ? std::min(section.bottom, row.value.min) : row.value.min;
      }
    }
    if (!(section.top > 0)) section.top = mem ? 1024 : 1;
    double largest_median = 0;
    for (const auto& row : section.rows) {
      if (row.value.n > 0) largest_median = std::max(largest_median, row.value.median);
    }
    section.log_scale = smallest > 0 && std::isfinite(smallest) && section.bottom > 0 &&
                        largest_median / smallest > kLogRange;
    if (section.log_scale) section.title += " · log scale";
    const double unit_basis = section.log_scale ? section.bottom : section.top;
    const Unit unit = mem                  ? Unit{1024, "MiB"}
                      : !time              ? count_unit(unit_basis)
                      : unit_basis >= 1    ? Unit{1, "s"}
                      : unit_basis >= 1e-3 ? Unit{1e-3, "ms"}
                                           : Unit{1e-6, "µs"};
    section.divisor = unit.divisor;
    section.unit = unit.name;
    section.value_decimals = decimals_for(smallest / unit.divisor);
    for (const auto& row : section.rows) {
      widths.label = std::max(widths.label, text_width(shorten(row.label, kMaxLabelChars), kFont));
      std::string v = row.value.n == 0 ? std::string("no successful run")
                                       : fmt::format("{:.{}f} {}", row.value.median / unit.divisor,
                                                     section.value_decimals, unit.name);
      std::string rel = row.fastest    ? std::string(time ? "fastest" : "smallest")
                        : row.relative ? fmt::format("{:.2f}×", *row.relative)
                                       : std::string();
      const std::size_t excluded = row.group->excluded_count();
      std::string note = excluded > 0 ? fmt::format("{} excluded", excluded) : std::string();
      widths.value = std::max(widths.value, text_width(v, kFont));
      widths.relative = std::max(widths.relative, text_width(rel, kFont));
      widths.note = std::max(widths.note, text_width(note, kFont));
      section.values.push_back(std::move(v));
      section.relatives.push_back(std::move(rel));
      section.notes.push_back(std::move(note));
    }
  }
  return widths;
}

}  // namespace iobench::plot
