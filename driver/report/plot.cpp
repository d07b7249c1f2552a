#include "driver/report/plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "driver/report/plot_sections.hpp"
#include "driver/report/summary.hpp"
#include "driver/report/svg.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::report {
namespace {

using runfile::Metric;
using svg::kCharWidth;
using svg::shorten;
using svg::star;
using svg::Svg;
using svg::text_width;

// Layout, in pixels.
constexpr double kTitleFont = 16;
constexpr double kSectionFont = 13;
constexpr double kRowHeight = 26;
constexpr double kBarHeight = 14;
constexpr double kStripHeight = 5;
constexpr double kMargin = 16;
constexpr double kGap = 12;  // between the label column, the plot and the value column

constexpr const char* kBarColor = "#a6bddb";
constexpr const char* kFastestColor = "#74c476";
constexpr const char* kUserColor = "#08519c";
constexpr const char* kSystemColor = "#e6550d";
constexpr const char* kWhiskerColor = "#333333";
constexpr const char* kIntervalColor = "#111111";
constexpr const char* kGridColor = "#e3e3e3";
constexpr const char* kMutedColor = "#666666";

std::string value_label(double v, Metric metric) {
  if (metric == Metric::kMem) return util::format_kib(v);
  if (is_counter(metric)) return fmt::format("{:.0f}", v);
  return util::format_seconds(v);
}

// Where the columns of every row go, left to right: labels, the plot, the values (right-aligned
// at value_x1), the relative figures, the notes.
struct Columns {
  double width = 0;
  double plot_x0 = 0;
  double plot_x1 = 0;
  double plot_w = 0;
  double value_x1 = 0;
  double relative_x1 = 0;
  double note_x0 = 0;
};

Columns place_columns(const ColumnWidths& widths, int width_px) {
  const double star_w = 2 * kFont;
  const double columns_w =
      star_w + widths.value + kGap + widths.relative + (widths.note > 0 ? kGap + widths.note : 0);
  Columns c;
  c.width = std::max(width_px, 640);
  c.plot_x0 = kMargin + widths.label + kGap;
  c.plot_x1 = c.width - kMargin - columns_w - kGap;
  c.value_x1 = c.plot_x1 + kGap + star_w + widths.value;  // right edge: numbers align
  c.relative_x1 = c.value_x1 + kGap + widths.relative;
  c.note_x0 = c.relative_x1 + kGap;
  if (c.plot_x1 - c.plot_x0 < 200) {
    throw Error("plot: test names too long for the chart width; use a wider chart");
  }
  c.plot_w = c.plot_x1 - c.plot_x0;
  return c;
}

// Title, the key to the marks, the subtitle and what split the groups (split_note); returns the
// baseline below them.
double draw_title(Svg& svg, const PlotOptions& options, const std::string& split, double width) {
  const bool mem = options.metric == Metric::kMem;
  const bool time = options.metric == Metric::kElapsed;  // with the user + system strip
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
  for (const std::string* line : {&options.subtitle, &split}) {
    if (line->empty()) continue;
    y += kFont + 6;
    svg.text(kMargin, y, "start", kFont,
             shorten(*line, static_cast<std::size_t>((width - 2 * kMargin) / (kFont * kCharWidth))),
             fmt::format(R"(fill="{}")", kMutedColor));
  }
  return y;
}

// The marks a legend item shows, each drawn as the rows draw it.
enum class LegendMark {
  kMedianBar,
  kMinMaxWhisker,
  kMedianInterval,
  kRunDot,
  kUserStrip,
  kSystemStrip,
  kFastest
};

// The elapsed median's 95 % interval, a dark band over the whisker (report_marks only).
std::string interval_band(double x0, double x1, double cy) {
  return fmt::format(
      R"(<rect class="ci95" x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" fill-opacity="0.75")",
      x0, cy - kStripHeight / 2, std::max(1.0, x1 - x0), kStripHeight, kIntervalColor);
}

void draw_legend_mark(Svg& svg, LegendMark mark, double x, double cy) {
  switch (mark) {
    case LegendMark::kMedianBar:
      svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)", x,
                          cy - kBarHeight / 2, kBarHeight, kBarColor));
      break;
    case LegendMark::kMinMaxWhisker:
      svg.raw(fmt::format(
          R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
          x, cy, x + 20, cy - 5, cy + 5, kWhiskerColor));
      break;
    case LegendMark::kMedianInterval:
      svg.raw(interval_band(x, x + 20, cy) + "/>");
      break;
    case LegendMark::kRunDot:
      svg.raw(
          fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.6"/>)",
                      x + 10, cy));
      break;
    case LegendMark::kUserStrip:
      svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)", x,
                          cy - kStripHeight / 2, kStripHeight, kUserColor));
      break;
    case LegendMark::kSystemStrip:
      svg.raw(fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="20" height="{}" fill="{}"/>)", x,
                          cy - kStripHeight / 2, kStripHeight, kSystemColor));
      break;
    case LegendMark::kFastest:
      svg.raw(star(x + 10, cy, 7, kFastestColor));
      break;
  }
}

// The legend below `y`, wrapped to the width; returns the y below it.
double draw_legend(Svg& svg, const PlotOptions& options, double width, double y) {
  const bool mem = options.metric == Metric::kMem;
  const bool time = options.metric == Metric::kElapsed;
  std::vector<std::pair<LegendMark, std::string>> items{
      {LegendMark::kMedianBar, mem    ? std::string("median max RSS")
                               : time ? std::string("median elapsed")
                                      : fmt::format("median {}", metric_name(options.metric))},
      {LegendMark::kMinMaxWhisker, "min–max"}};
  if (time && options.report_marks) {
    items.push_back({LegendMark::kMedianInterval, "95 % interval of the median"});
  }
  items.push_back({LegendMark::kRunDot, "one run"});
  if (time) {
    items.push_back({LegendMark::kUserStrip, "user CPU"});
    items.push_back({LegendMark::kSystemStrip, "system CPU"});
  }
  items.push_back({LegendMark::kFastest,
                   time ? "fastest of its input and sink" : "smallest of its input and sink"});
  double x = kMargin;
  double cy = y + 10;
  for (const auto& [mark, text] : items) {
    const double item_w = 26 + text_width(text, kFont) + 18;
    if (x + item_w > width - kMargin) {
      x = kMargin;
      cy += 20;
    }
    draw_legend_mark(svg, mark, x, cy);
    svg.text(x + 26, cy + 4, "start", kFont, text);
    x += item_w;
  }
  return cy + 14;
}

void draw_grid_line(Svg& svg, double x, double y0, double y1, const char* color) {
  svg.raw(fmt::format(R"(<line x1="{0:.1f}" x2="{0:.1f}" y1="{1:.1f}" y2="{2:.1f}" stroke="{3}"/>)",
                      x, y0, y1, color));
}

// The marks of one row with runs: the median bar, the user + system strip (elapsed only), the
// min-max whisker (with the median's interval for the report) and a dot per run.
void draw_marks(Svg& svg, const ChartRow& row, const Axis& axis, const PlotOptions& options,
                double cy) {
  const Metric metric = options.metric;
  const double x0 = axis.plot_x0;
  const auto& samples = row.group->metric(metric);
  svg.raw(fmt::format(
      R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>{}: median {}, n = {}</title></rect>)",
      x0, cy - kBarHeight / 2, std::max(0.5, axis.x(row.value.median) - x0), kBarHeight,
      row.fastest ? kFastestColor : kBarColor, util::escape_markup(row.label),
      value_label(row.value.median, metric), row.value.n));
  if (metric == Metric::kElapsed) {
    // The strip ends at user + system; the user part is its share of that length, as on a linear
    // axis. Stacked on a log axis (user to x(user), system from there) the proportions inverted:
    // a decade from 1 to 10 ms drew as long as one from 10 to 100.
    const double cpu_s = row.user_median + row.system_median;
    const double user_share = cpu_s > 0 ? row.user_median / cpu_s : 0;
    const double xu = x0 + (axis.x(cpu_s) - x0) * user_share;
    svg.raw(fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>user {}</title></rect>)",
        x0, cy - kStripHeight / 2, xu - x0, kStripHeight, kUserColor,
        value_label(row.user_median, Metric::kElapsed)));
    svg.raw(fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"><title>system {}</title></rect>)",
        xu, cy - kStripHeight / 2, axis.x(cpu_s) - xu, kStripHeight, kSystemColor,
        value_label(row.system_median, Metric::kElapsed)));
  }
  svg.raw(fmt::format(
      R"(<path d="M{0:.1f} {1:.1f}H{2:.1f}M{0:.1f} {3:.1f}V{4:.1f}M{2:.1f} {3:.1f}V{4:.1f}" stroke="{5}" stroke-width="1.2" fill="none"/>)",
      axis.x(row.value.min), cy, axis.x(row.value.max), cy - 5, cy + 5, kWhiskerColor));
  const stats::MedianInterval& ci = row.elapsed_ci95;
  if (options.report_marks && metric == Metric::kElapsed && std::isfinite(ci.half_width)) {
    // The interval may reach past the runs (few runs, t quantiles): drawn within the plot, its
    // bounds in the tooltip.
    const double plot_x1 = axis.plot_x0 + axis.plot_w;
    svg.raw(fmt::format("{}><title>95 % interval of the median: {} – {}</title></rect>",
                        interval_band(std::max(x0, axis.x(ci.median - ci.half_width)),
                                      std::min(plot_x1, axis.x(ci.median + ci.half_width)), cy),
                        value_label(ci.median - ci.half_width, metric),
                        value_label(ci.median + ci.half_width, metric)));
  }
  const char* dot_class = options.report_marks ? R"( class="run")" : "";
  for (std::size_t i = 0; i < samples.size(); ++i) {
    // Deterministic vertical jitter so equal values stay visible.
    const double jitter = (static_cast<double>((i * 7) % 5) - 2) * 1.6;
    svg.raw(fmt::format(
        R"(<circle{} cx="{:.1f}" cy="{:.1f}" r="2.6" fill="#000" fill-opacity="0.55"/>)", dot_class,
        axis.x(samples[i]), cy + jitter));
  }
}

// Row r of the section at `y` (its top): the stripe of odd rows, the label, the marks and the
// value columns.
void draw_row(Svg& svg, const Section& section, std::size_t r, const Axis& axis,
              const Columns& columns, const PlotOptions& options, double y) {
  const ChartRow& row = section.rows[r];
  const double cy = y + kRowHeight / 2;
  if (options.report_marks) {
    svg.raw(fmt::format(R"(<g class="chart-row" data-test="{}">)", util::escape_markup(row.label)));
  }
  if (r % 2 == 1) {
    svg.raw(
        fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="#f6f8fa"/>)",
                    kMargin, y, columns.width - 2 * kMargin, kRowHeight));
    // Redraw the grid over the stripe.
    for (std::size_t t = 1; t < axis.ticks.size(); ++t) {
      draw_grid_line(svg, axis.x(axis.ticks[t]), y, y + kRowHeight, kGridColor);
    }
  }
  const std::string label = shorten(row.label, kMaxLabelChars);
  svg.text(columns.plot_x0 - kGap, cy + 4, "end", kFont, label,
           row.fastest ? R"(font-weight="bold")" : "", label != row.label ? row.label : "");
  if (row.value.n > 0) draw_marks(svg, row, axis, options, cy);
  if (row.fastest) svg.raw(star(columns.plot_x1 + kGap + 6, cy, 7, kFastestColor));
  const char* style = row.fastest        ? R"(font-weight="bold" fill="#2f7d32")"
                      : row.value.n == 0 ? R"(fill="#b00020")"
                                         : "";
  svg.text(columns.value_x1, cy + 4, "end", kFont, section.values[r], style);
  if (!section.relatives[r].empty()) {
    svg.text(columns.relative_x1, cy + 4, "end", kFont, section.relatives[r], style);
  }
  if (!section.notes[r].empty()) {
    svg.text(columns.note_x0, cy + 4, "start", kFont, section.notes[r], R"(fill="#b00020")");
  }
  if (options.report_marks) svg.raw("</g>");
}

// One section below `y`: its title, the grid, its rows and the axis labels under them; returns
// the y below it.
double draw_section(Svg& svg, const Section& section, const Columns& columns,
                    const PlotOptions& options, double y) {
  y += 18;
  svg.text(kMargin, y, "start", kSectionFont, section.title, R"(font-weight="bold")");
  y += 8;
  const Axis axis = make_axis(section, columns.plot_x0, columns.plot_w);
  const std::size_t tick_count = axis.ticks.size() - 1;
  const double rows_y1 = y + kRowHeight * static_cast<double>(section.rows.size());
  for (std::size_t t = 0; t <= tick_count; ++t) {
    draw_grid_line(svg, axis.x(axis.ticks[t]), y, rows_y1, t == 0 ? "#999999" : kGridColor);
  }
  for (std::size_t r = 0; r < section.rows.size(); ++r) {
    draw_row(svg, section, r, axis, columns, options, y);
    y += kRowHeight;
  }
  y += kFont + 4;
  for (std::size_t t = 0; t <= tick_count; ++t) {
    svg.text(axis.x(axis.ticks[t]), y,
             t == 0            ? "start"
             : t == tick_count ? "end"
                               : "middle",
             kFont, axis.labels[t], fmt::format(R"(fill="{}")", kMutedColor));
  }
  return y;
}

// The whole SVG document around a body, `height` rounded up.
Chart finish_chart(Svg& svg, double width, double height) {
  Chart chart;
  chart.width = width;
  chart.height = std::ceil(height);
  chart.svg = svg::document(chart.width, chart.height, svg.body());
  chart.text_boxes = std::move(svg.boxes());
  return chart;
}

}  // namespace

Chart render(const runfile::RunSet& set, const PlotOptions& options) {
  if (options.metric != Metric::kElapsed && options.metric != Metric::kMem &&
      !is_counter(options.metric)) {
    throw Error("--metric: plot draws elapsed, mem or a counter column (syscalls, ...)");
  }
  std::vector<Section> sections = group_sections(set, options.metric, options.baseline);
  const Columns columns = place_columns(scale_sections(sections, options.metric), options.width_px);
  Svg svg;
  double y = 0;
  if (options.heading) {
    y = draw_title(svg, options, split_note(set, false), columns.width);
    y = draw_legend(svg, options, columns.width, y + 12);
  }
  for (const Section& section : sections) {
    y = draw_section(svg, section, columns, options, y);
  }
  return finish_chart(svg, columns.width, y + kMargin);
}

Chart render_key(const PlotOptions& options) {
  const double width = std::max(options.width_px, 640);
  Svg svg;
  const double y = draw_legend(svg, options, width, 4);
  return finish_chart(svg, width, y + 4);
}

void plot_files(const std::vector<std::filesystem::path>& files, const std::filesystem::path& out,
                const PlotOptions& options) {
  const runfile::RunSet set = runfile::read_runs(files, runfile::cell_grouping());
  PlotOptions o = options;
  if (o.subtitle.empty()) {
    std::vector<std::string> names;
    for (const auto& f : set.files) names.push_back(std::filesystem::path(f).filename().string());
    o.subtitle = fmt::format("{} · {} runs", fmt::join(names, ", "), set.rows);
  }
  const Chart chart = render(set, o);
  write_file_atomically(out, chart.svg);
}

}  // namespace iobench::report
