#include "driver/report/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/plot_sections.hpp"
#include "driver/report/stats.hpp"
#include "driver/report/svg.hpp"
#include "driver/util/format.hpp"

namespace iobench::plot {
namespace {

using results::Metric;
using svg::count_unit;
using svg::decimals_for;
using svg::escape;
using svg::kCharWidth;
using svg::nice_step;
using svg::shorten;
using svg::star;
using svg::Svg;
using svg::text_width;
using svg::tick_label;
using svg::Unit;

// Layout, in pixels.
constexpr double kTitleFont = 16;
constexpr double kSectionFont = 13;
constexpr double kRowHeight = 26;
constexpr double kBarHeight = 14;
constexpr double kStripHeight = 5;
constexpr double kMargin = 16;
constexpr double kGap = 12;  // between the label column, the plot and the value column

constexpr const char* kFontFamily = "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace";
constexpr const char* kBarColor = "#a6bddb";
constexpr const char* kFastestColor = "#74c476";
constexpr const char* kUserColor = "#08519c";
constexpr const char* kSystemColor = "#e6550d";
constexpr const char* kWhiskerColor = "#333333";
constexpr const char* kGridColor = "#e3e3e3";
constexpr const char* kTextColor = "#222222";
constexpr const char* kMutedColor = "#666666";

std::string format_value(double v, Metric metric) {
  if (metric == Metric::kMem) return format_kib(v);
  if (is_counter(metric)) return fmt::format("{:.0f}", v);
  return format_seconds(v);
}

}  // namespace

Chart render(const results::RunSet& set, const Options& options) {
  if (options.metric != Metric::kElapsed && options.metric != Metric::kMem &&
      !is_counter(options.metric)) {
    throw Error("--metric: plot draws elapsed, mem or a counter column (syscalls, ...)");
  }
  const bool mem = options.metric == Metric::kMem;
  const bool time = options.metric == Metric::kElapsed;  // with the user + system strip

  std::vector<Section> sections = group_sections(set, options.metric);
  const ColumnWidths widths = scale_sections(sections, options.metric);
  const double label_w = widths.label;
  const double value_w = widths.value;
  const double relative_w = widths.relative;
  const double note_w = widths.note;
  const double star_w = 2 * kFont;
  const double columns_w = star_w + value_w + kGap + relative_w + (note_w > 0 ? kGap + note_w : 0);
  const double width = std::max(options.width_px, 640);
  const double plot_x0 = kMargin + label_w + kGap;
  const double plot_x1 = width - kMargin - columns_w - kGap;
  const double value_x1 = plot_x1 + kGap + star_w + value_w;  // right edge: numbers align
  const double relative_x1 = value_x1 + kGap + relative_w;
  const double note_x0 = relative_x1 + kGap;
  if (plot_x1 - plot_x0 < 200) {
    throw Error("plot: test names too long for the chart width; use a wider chart");
  }
  const double plot_w = plot_x1 - plot_x0;

  Svg svg;
  double y = kMargin + kTitleFont;
  const std::string title =
      !options.title.empty() ? options.title
      : mem                  ? std::string("iobench: peak memory (max RSS) per test")
      : time                 ? std::string("iobench: elapsed time per test")
             : fmt::format("iobench: {} per test (kernel counter)", metric_name(options.metric));
  svg.text(kMargin, y, "start", kTitleFont, title, R"(font-weight="bold")");
  y += kFont + 8;
  svg.text(kMargin, y, "start", kFont,
           !time
               ? "bar: median · whisker: min–max · dot: one run · lower is better"
               : "bar: median · whisker: min–max · dot: one run · strip: user + system CPU · lower "
                 "is better",
           fmt::format(R"(fill="{}")", kMutedColor));
  if (!options.subtitle.empty()) {
    y += kFont + 6;
    svg.text(kMargin, y, "start", kFont,
             shorten(options.subtitle,
                     static_cast<std::size_t>((width - 2 * kMargin) / (kFont * kCharWidth))),
             fmt::format(R"(fill="{}")", kMutedColor));
  }

  // Legend, wrapped to the width.
  y += 12;
  {
    std::vector<std::pair<int, std::string>> items{
        {0, mem    ? std::string("median max RSS")
            : time ? std::string("median elapsed")
                   : fmt::format("median {}", metric_name(options.metric))},
        {1, "min–max"},
        {2, "one run"}};
    if (time) {
      items.push_back({3, "user CPU"});
      items.push_back({4, "system CPU"});
    }
    items.push_back({5, time ? "fastest of its input and sink" : "smallest of its input and sink"});
    double x = kMargin;
    double cy = y + 10;
    for (const auto& [kind, text] : items) {
      const double item_w = 26 + text_width(text, kFont) + 18;
      if (x + item_w > width - kMargin) {
        x = kMargin;
        cy += 20;
      }
      switch (kind) {
        case 0:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kBarHeight / 2, kBarHeight, kBarColor));
          break;
        case 1:
          svg.raw(fmt::format(
              R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
              x, cy, x + 20, cy - 5, cy + 5, kWhiskerColor));
          break;
        case 2:
          svg.raw(fmt::format(
              R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.6"/>)", x + 10,
              cy));
          break;
        case 3:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kStripHeight / 2, kStripHeight, kUserColor));
          break;
        case 4:
          svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)",
                              x, cy - kStripHeight / 2, kStripHeight, kSystemColor));
          break;
        default:
          svg.raw(star(x + 10, cy, 7, kFastestColor));
          break;
      }
      svg.text(x + 26, cy + 4, "start", kFont, text);
      x += item_w;
    }
    y = cy + 14;
  }

  for (std::size_t s = 0; s < sections.size(); ++s) {
    const Section& section = sections[s];
    y += 18;
    svg.text(kMargin, y, "start", kSectionFont, section.title, R"(font-weight="bold")");
    y += 8;

    const double top = section.top;
    const Unit unit{section.divisor, section.unit};
    // Ticks: as many as fit with their labels apart. The first label is anchored at its start
    // and the last at its end, so 1.5 label widths apart suffice.
    std::vector<double> ticks;
    std::vector<std::string> tick_labels;
    const auto labels_fit = [&](const std::vector<std::string>& names, double min_spacing_px) {
      double label_max = 0;
      for (const auto& name : names) label_max = std::max(label_max, text_width(name, kFont));
      return min_spacing_px >= 1.5 * label_max + 12;
    };
    double axis_lo = 0;
    double axis_hi = 0;
    if (section.log_scale) {
      // Decades around the data, with 2 and 5 between them where they fit.
      axis_lo = std::pow(10, std::floor(std::log10(section.bottom / unit.divisor) + 1e-9));
      axis_hi = std::pow(10, std::ceil(std::log10(top / unit.divisor) - 1e-9));
      const double decades = std::log10(axis_hi / axis_lo);
      for (const auto& mantissas : {std::vector<double>{1, 2, 5}, std::vector<double>{1}}) {
        ticks.clear();
        tick_labels.clear();
        for (double decade = axis_lo; decade <= axis_hi * (1 + 1e-9); decade *= 10) {
          for (double m : mantissas) {
            const double v = decade * m;
            if (v > axis_hi * (1 + 1e-9)) break;
            ticks.push_back(v * unit.divisor);
            tick_labels.push_back(fmt::format("{:g} {}", v, unit.name));
          }
        }
        // Narrowest gap: between 2 and 5 (log10 2.5 = 0.398 of a decade) or a whole decade.
        const double gap = plot_w / decades * (mantissas.size() > 1 ? std::log10(2.5) : 1.0);
        if (labels_fit(tick_labels, gap)) break;
      }
      axis_lo *= unit.divisor;
      axis_hi *= unit.divisor;
    } else {
      double step = 0;
      for (int max_ticks = 10; max_ticks >= 1; --max_ticks) {
        step = nice_step(top / unit.divisor, max_ticks) * unit.divisor;
        axis_hi = std::ceil(top / step - 1e-9) * step;
        ticks.clear();
        tick_labels.clear();
        const int count = static_cast<int>(std::lround(axis_hi / step));
        for (int t = 0; t <= count; ++t) {
          ticks.push_back(step * t);
          tick_labels.push_back(tick_label(step * t, step, unit));
        }
        if (labels_fit(tick_labels, plot_w * step / axis_hi)) break;
      }
    }
    const double log_lo = section.log_scale ? std::log10(axis_lo) : 0;
    const double log_span = section.log_scale ? std::log10(axis_hi) - log_lo : 1;
    const auto sx = [&](double v) {
      if (section.log_scale) {
        return plot_x0 + plot_w * (std::log10(std::max(v, axis_lo)) - log_lo) / log_span;
      }
      return plot_x0 + plot_w * v / axis_hi;
    };
    const std::size_t tick_count = ticks.size() - 1;

    const double rows_y0 = y;
    const double rows_y1 = y + kRowHeight * static_cast<double>(section.rows.size());
    for (std::size_t t = 0; t <= tick_count; ++t) {
      const double v = ticks[t];
      svg.raw(
          fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="{3}"/>)",
                      sx(v), rows_y0, rows_y1, t == 0 ? "#999999" : kGridColor));
    }

    for (std::size_t r = 0; r < section.rows.size(); ++r) {
      const Row& row = section.rows[r];
      const double cy = y + kRowHeight / 2;
      if (r % 2 == 1) {
        svg.raw(fmt::format(
            R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="#f6f8fa"/>)", kMargin,
            y, width - 2 * kMargin, kRowHeight));
        // Redraw the grid over the stripe.
        for (std::size_t t = 1; t <= tick_count; ++t) {
          svg.raw(fmt::format(
              R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="{3}"/>)",
              sx(ticks[t]), y, y + kRowHeight, kGridColor));
        }
      }
      const std::string label = shorten(row.label, kMaxLabelChars);
      svg.text(plot_x0 - kGap, cy + 4, "end", kFont, label,
               row.fastest ? R"(font-weight="bold")" : "", label != row.label ? row.label : "");
      if (row.value.n > 0) {
        const auto& samples = row.group->metric(options.metric);
        svg.raw(fmt::format(
            R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>{}: median {}, n = {}</title></rect>)",
            plot_x0, cy - kBarHeight / 2, std::max(0.5, sx(row.value.median) - plot_x0), kBarHeight,
            row.fastest ? kFastestColor : kBarColor, escape(row.label),
            format_value(row.value.median, options.metric), row.value.n));
        if (time) {
          const double xu = sx(row.user_median);
          svg.raw(fmt::format(
              R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>user {}</title></rect>)",
              plot_x0, cy - kStripHeight / 2, xu - plot_x0, kStripHeight, kUserColor,
              format_value(row.user_median, Metric::kElapsed)));
          svg.raw(fmt::format(
              R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>system {}</title></rect>)",
              xu, cy - kStripHeight / 2, sx(row.user_median + row.system_median) - xu, kStripHeight,
              kSystemColor, format_value(row.system_median, Metric::kElapsed)));
        }
        svg.raw(fmt::format(
            R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
            sx(row.value.min), cy, sx(row.value.max), cy - 5, cy + 5, kWhiskerColor));
        for (std::size_t i = 0; i < samples.size(); ++i) {
          // Deterministic vertical jitter so equal values stay visible.
          const double jitter = (static_cast<double>((i * 7) % 5) - 2) * 1.6;
          svg.raw(fmt::format(
              R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.55"/>)",
              sx(samples[i]), cy + jitter));
        }
      }
      if (row.fastest) svg.raw(star(plot_x1 + kGap + 6, cy, 7, kFastestColor));
      const char* style = row.fastest        ? R"(font-weight="bold" fill="#2f7d32")"
                          : row.value.n == 0 ? R"(fill="#b00020")"
                                             : "";
      svg.text(value_x1, cy + 4, "end", kFont, section.values[r], style);
      if (!section.relatives[r].empty()) {
        svg.text(relative_x1, cy + 4, "end", kFont, section.relatives[r], style);
      }
      if (!section.notes[r].empty()) {
        svg.text(note_x0, cy + 4, "start", kFont, section.notes[r], R"(fill="#b00020")");
      }
      y += kRowHeight;
    }
    // Axis labels under the rows.
    y += kFont + 4;
    for (std::size_t t = 0; t <= tick_count; ++t) {
      svg.text(sx(ticks[t]), y,
               t == 0            ? "start"
               : t == tick_count ? "end"
                                 : "middle",
               kFont, tick_labels[t], fmt::format(R"(fill="{}")", kMutedColor));
    }
  }
  y += kMargin;

  Chart chart;
  chart.width = width;
  chart.height = std::ceil(y);
  chart.svg = fmt::format(
      R"(<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" viewBox="0 0 {0:.0f} {1:.0f}" font-family="{2}" fill="{3}">
<rect width="100%" height="100%" fill="#ffffff"/>
{4}</svg>
)",
      width, chart.height, kFontFamily, kTextColor, svg.body());
  chart.text_boxes = std::move(svg.boxes());
  return chart;
}

void plot_files(const std::vector<std::filesystem::path>& files, const std::filesystem::path& out,
                const Options& options) {
  results::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  read.allow_missing_columns = true;
  const results::RunSet set = results::read_runs(files, read);
  Options o = options;
  if (o.subtitle.empty()) {
    std::vector<std::string> names;
    for (const auto& f : set.files) names.push_back(std::filesystem::path(f).filename().string());
    o.subtitle = fmt::format("{} · {} runs", fmt::join(names, ", "), set.rows);
  }
  const Chart chart = render(set, o);
  write_file_atomically(out, chart.svg);
}

}  // namespace iobench::plot
