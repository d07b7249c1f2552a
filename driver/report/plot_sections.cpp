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

namespace iobench::report {

using runfile::Metric;
using svg::count_unit;
using svg::decimals_for;
using svg::nice_step;
using svg::shorten;
using svg::text_width;
using svg::tick_label;
using svg::Unit;

std::vector<Section> group_sections(const runfile::RunSet& set, Metric metric,
                                    const std::string& baseline) {
  const std::size_t test_key = set.key_index("test");
  const std::size_t input_key = set.key_index("input");
  const std::size_t sink_key = set.key_index("sink");
  if (test_key == std::string_view::npos) throw Error("plot: the runs have no test column");
  // The reference and the relative figures are the summary's (reference.hpp), for this metric.
  report::SummaryOptions summary_options;
  summary_options.relative_metric = metric;
  summary_options.baseline = baseline;
  const report::Summary summary = report::summarize(set, summary_options);
  // Sections by input, sink and every other key (the conditions the files differ in;
  // docs/reports.md, "Never pooled"), in order of first appearance; rows fastest first.
  std::vector<Section> sections;
  std::map<std::vector<std::string>, std::size_t> section_index;
  for (std::size_t i = 0; i < set.groups.size(); ++i) {
    const runfile::Group& g = set.groups[i];
    const report::GroupStats& stats = summary.groups[i];  // the summary keeps the set's order
    std::vector<std::string> place = g.key;
    place.erase(place.begin() + static_cast<std::ptrdiff_t>(test_key));
    auto [it, inserted] = section_index.emplace(std::move(place), sections.size());
    if (inserted) {
      std::string title;
      if (input_key != std::string_view::npos && !g.key[input_key].empty()) {
        title += "input " + g.key[input_key];
      }
      if (sink_key != std::string_view::npos && !g.key[sink_key].empty()) {
        title += (title.empty() ? "sink " : " · sink ") + g.key[sink_key];
      }
      for (std::size_t k = 0; k < set.group_by.size(); ++k) {
        if (k == test_key || k == input_key || k == sink_key) continue;
        title += fmt::format("{}{} {}", title.empty() ? "" : " · ", set.group_by[k],
                             g.key[k].empty() ? "unknown" : g.key[k]);
      }
      Section section;
      section.title = title.empty() ? "(no input or sink column)" : title;
      sections.push_back(std::move(section));
    }
    ChartRow row{&g,
                 g.key[test_key],
                 stats.metric(metric),
                 stats.metric(Metric::kUser).median,
                 stats.metric(Metric::kSystem).median,
                 false,
                 stats.is_reference,
                 stats.relative,
                 stats.elapsed_ci95};
    // The section names its reference, the one every surface compares with (docs/reports.md,
    // "The answer").
    if (stats.reference && *stats.reference == i && sections[it->second].reference.empty()) {
      sections[it->second].reference = fmt::format(
          "relative to {} ({})", shorten(g.key[test_key], kMaxLabelChars),
          stats.reference_rule == ReferenceRule::kBaseline
              ? summary.baseline_named_by
              : std::string(metric == Metric::kElapsed ? "the fastest" : "the smallest"));
    }
    sections[it->second].rows.push_back(std::move(row));
  }
  if (sections.empty()) throw Error("plot: no runs to plot");
  for (auto& section : sections) {
    std::stable_sort(section.rows.begin(), section.rows.end(),
                     [](const ChartRow& a, const ChartRow& b) {
                       const bool an = a.value.n > 0;
                       const bool bn = b.value.n > 0;
                       if (an != bn) return an;
                       return an && a.value.median < b.value.median;
                     });
    // The star: the smallest positive median (a median of 0 is no time to compare with).
    const auto fastest =
        std::find_if(section.rows.begin(), section.rows.end(),
                     [](const ChartRow& r) { return r.value.n > 0 && r.value.median > 0; });
    if (fastest != section.rows.end()) fastest->fastest = true;
    if (!section.reference.empty()) section.title += " · " + section.reference;
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
      std::string rel = row.fastest && (row.reference || !row.relative)
                            ? std::string(time ? "fastest" : "smallest")
                        : row.reference ? std::string("reference")
                        : row.relative  ? fmt::format("{:.2f}×", *row.relative)
                                        : std::string();
      // Its marks (unverified, disturbed), then the runs left out for another status.
      std::vector<std::string> notes = report::group_marks(*row.group);
      const std::size_t excluded =
          row.group->excluded_count() -
          row.group->rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)];
      if (excluded > 0) notes.push_back(fmt::format("{} excluded", excluded));
      std::string note = fmt::format("{}", fmt::join(notes, " · "));
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

namespace {

// Ticks: as many as fit with their labels apart. The first label is anchored at its start and
// the last at its end, so 1.5 label widths apart suffice.
bool labels_fit(const std::vector<std::string>& names, double min_spacing_px) {
  double label_max = 0;
  for (const auto& name : names) label_max = std::max(label_max, text_width(name, kFont));
  return min_spacing_px >= 1.5 * label_max + 12;
}

// Decades around the data, with 2 and 5 between them where they fit.
void set_log_ticks(const Section& section, const Unit& unit, Axis& axis) {
  axis.lo = std::pow(10, std::floor(std::log10(section.bottom / unit.divisor) + 1e-9));
  axis.hi = std::pow(10, std::ceil(std::log10(section.top / unit.divisor) - 1e-9));
  const double decades = std::log10(axis.hi / axis.lo);
  for (const auto& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1}}) {
    axis.ticks.clear();
    axis.labels.clear();
    for (double decade = axis.lo; decade <= axis.hi * (1 + 1e-9); decade *= 10) {
      for (double m : mantissas) {
        const double v = decade * m;
        if (v > axis.hi * (1 + 1e-9)) break;
        axis.ticks.push_back(v * unit.divisor);
        axis.labels.push_back(fmt::format("{:g} {}", v, unit.name));
      }
    }
    // Narrowest gap: between 2 and 5 (log10 2.5 = 0.398 of a decade) or a whole decade.
    const double gap = axis.plot_w / decades * (mantissas.size() > 1 ? std::log10(2.5) : 1.0);
    if (labels_fit(axis.labels, gap)) break;
  }
  axis.lo *= unit.divisor;
  axis.hi *= unit.divisor;
}

// From 0 in 1-2-5 steps, the most that fit.
void set_linear_ticks(const Section& section, const Unit& unit, Axis& axis) {
  for (int max_ticks = 10; max_ticks >= 1; --max_ticks) {
    const double step = nice_step(section.top / unit.divisor, max_ticks) * unit.divisor;
    axis.hi = std::ceil(section.top / step - 1e-9) * step;
    axis.ticks.clear();
    axis.labels.clear();
    const int count = static_cast<int>(std::lround(axis.hi / step));
    for (int t = 0; t <= count; ++t) {
      axis.ticks.push_back(step * t);
      axis.labels.push_back(tick_label(step * t, step, unit));
    }
    if (labels_fit(axis.labels, axis.plot_w * step / axis.hi)) break;
  }
}

}  // namespace

double Axis::x(double v) const {
  if (log_scale) {
    const double log_lo = std::log10(lo);
    const double log_span = std::log10(hi) - log_lo;
    return plot_x0 + plot_w * (std::log10(std::max(v, lo)) - log_lo) / log_span;
  }
  return plot_x0 + plot_w * v / hi;
}

Axis make_axis(const Section& section, double plot_x0, double plot_w) {
  Axis axis;
  axis.log_scale = section.log_scale;
  axis.plot_x0 = plot_x0;
  axis.plot_w = plot_w;
  const Unit unit{section.divisor, section.unit};
  if (section.log_scale) {
    set_log_ticks(section, unit, axis);
  } else {
    set_linear_ticks(section, unit, axis);
  }
  return axis;
}

}  // namespace iobench::report
