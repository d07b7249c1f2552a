#include "driver/history/trend_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "driver/history/changes.hpp"
#include "driver/history/check.hpp"
#include "driver/report/svg.hpp"
#include "driver/util/text.hpp"

namespace iobench::history {
namespace {

namespace svg = report::svg;

constexpr double kFont = 12;
constexpr double kMargin = 16;
constexpr double kPlotHeight = 260;
constexpr double kAxisWidth = 70;
constexpr double kRunInset = 36;
constexpr const char* kPointColor = "#8a8a8a";
constexpr const char* kMedianColor = "#1f5fa8";
constexpr const char* kChangeColor = "#c0392b";

// The y axis' unit: iobench's own seconds as s, ms or µs; an imported series' values in the unit
// its file gave (ns, items/s, ...), as they are stored.
svg::Unit axis_unit(double top, const SeriesKey& key) {
  if (!key.tool.empty()) return {1, key.unit.c_str()};
  if (top >= 1) return {1, "s"};
  if (top >= 1e-3) return {1e-3, "ms"};
  return {1e-6, "µs"};
}

// Where the plot area is and how runs and seconds map into it.
struct Frame {
  double x0 = 0, x1 = 0, y0 = 0, y1 = 0, y_max = 0;
  std::size_t runs = 0;
  // Runs sit kRunInset inside the plot's edges, so that the first and last are not on an axis
  // and their labels fit.
  [[nodiscard]] double sx(std::size_t i) const {
    const double left = x0 + kRunInset;
    const double right = x1 - kRunInset;
    return runs <= 1
               ? (left + right) / 2
               : left + (right - left) * static_cast<double>(i) / static_cast<double>(runs - 1);
  }
  [[nodiscard]] double sy(double v) const { return y1 - (y1 - y0) * (y_max > 0 ? v / y_max : 0); }
};

void draw_changes(svg::Svg& out, const Frame& f, const std::vector<SeriesChange>& changes,
                  TrendChart& chart) {
  for (const SeriesChange& change : changes) {
    const double x = (f.sx(change.point.index - 1) + f.sx(change.point.index)) / 2;
    out.raw(fmt::format(
        R"(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="{3}" stroke-dasharray="5,4"><title>{4}</title></line>)",
        x, f.y0, f.y1, kChangeColor, util::escape_markup(change.change_id)));
    out.text(x + 4, f.y0 + kFont, "start", kFont - 1,
             fmt::format("{:+.1f} %", 100 * change.point.relative_change()),
             fmt::format(R"(fill="{}")", kChangeColor), change.change_id);
    ++chart.change_points;
    if (change.ack != nullptr) {
      out.raw(fmt::format("<g><title>{}</title>{}</g>",
                          util::escape_markup(fmt::format("acknowledged by {}: {}", change.ack->who,
                                                          change.ack->why)),
                          svg::star(x, f.y0 - 6, 6, "#9ccc65")));
      ++chart.acknowledged;
    }
  }
}

void draw_runs(svg::Svg& out, const Frame& f, const MedianSeries& medians,
               const StoredSeries& series, TrendChart& chart) {
  std::string line;
  for (std::size_t i = 0; i < medians.points.size(); ++i) {
    for (const double v : usable_elapsed(*medians.points[i], series)) {
      out.raw(
          fmt::format(R"(<circle cx="{:.1f}" cy="{:.1f}" r="2.2" fill="{}" fill-opacity="0.6"/>)",
                      f.sx(i), f.sy(v), kPointColor));
      ++chart.points;
    }
    line += fmt::format("{:.1f},{:.1f} ", f.sx(i), f.sy(medians.medians[i]));
  }
  out.raw(fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="1.6"/>)", line,
                      kMedianColor));
  const std::size_t label_every = std::max<std::size_t>(1, medians.points.size() / 8);
  for (std::size_t i = 0; i < medians.points.size(); i += label_every) {
    const StoredRun& run = *medians.points[i]->run;
    out.text(f.sx(i), f.y1 + kFont + 4, "middle", kFont - 2,
             run.labels.commit ? run.labels.commit->substr(0, 7) : run.date.substr(5, 11),
             R"(fill="#555555")", run.date);
  }
}

}  // namespace

TrendChart render_trend(const HistoryData& data, const Timeline& timeline, double width_px) {
  const StoredSeries& series = *timeline.series;
  const MedianSeries medians = medians_of(timeline);
  double top = 0;
  for (const RunPoint* point : medians.points)
    for (const double v : usable_elapsed(*point, series)) top = std::max(top, v);
  const svg::Unit unit = axis_unit(top, series.key);
  const double step = svg::nice_step(top * 1.05, 5);
  Frame f;
  f.y_max = step * std::ceil(top * 1.05 / step);
  f.x0 = kMargin + kAxisWidth;
  f.x1 = width_px - kMargin;
  f.y0 = kMargin + 3 * kFont + 8;  // below the title and subtitle
  f.y1 = f.y0 + kPlotHeight;
  f.runs = medians.points.size();

  svg::Svg out;
  TrendChart chart;
  out.text(kMargin, kMargin + kFont, "start", kFont + 2, series_label(series),
           R"(font-weight="bold")");
  const auto fitting =
      static_cast<std::size_t>((width_px - 2 * kMargin) / (svg::kCharWidth * (kFont - 1)));
  out.text(kMargin, kMargin + 2.4 * kFont, "start", kFont - 1,
           svg::shorten(fmt::format("series {} · {} runs · every ok, verified row, medians · {}",
                                    series.series_hash.substr(0, 8), timeline.points.size(),
                                    series.key.host_class),
                        fitting),
           R"(fill="#555555")");
  // Each tick as a multiple of the step: a sum of steps drifts (0.1 + 0.2 != 0.3).
  const auto tick_count = static_cast<int>(std::lround(f.y_max / step));
  for (int t = 0; t <= tick_count; ++t) {
    const double v = step * t;
    out.raw(
        fmt::format(R"(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#e4e4e4"/>)",
                    f.x0, f.sy(v), f.x1, f.sy(v)));
    out.text(f.x0 - 6, f.sy(v) + kFont / 3, "end", kFont - 1, svg::tick_label(v, step, unit));
  }
  draw_runs(out, f, medians, series, chart);
  draw_changes(out, f, series_changes(timeline, data), chart);
  const double height = f.y1 + 2 * kFont + kMargin;
  chart.svg = svg::document(width_px, height, out.body());
  return chart;
}

}  // namespace iobench::history
