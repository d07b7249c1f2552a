#pragma once
// `iobench history plot SERIES -o trend.svg`: one series along its runs (docs/history.md): every
// row that counts as a point, the per-run medians as a line, each change point as a dashed line
// with its change, an acknowledged one with a star (its reason as the tooltip). Drawn with the
// SVG blocks of `iobench plot` (driver/report/svg.hpp).
#include <string>

#include "driver/history/timeline.hpp"

namespace iobench::history {

struct TrendChart {
  std::string svg;
  std::size_t points = 0;         // rows drawn
  std::size_t change_points = 0;  // dashed lines drawn
  std::size_t acknowledged = 0;   // of which with a star
};

TrendChart render_trend(const HistoryData& data, const Timeline& timeline, double width_px = 900);

}  // namespace iobench::history
