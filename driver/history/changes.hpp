#pragma once
// `iobench history changes`: every change point along each series (stats/change_points.hpp on the
// medians of its runs), each with its id, whether it is acknowledged, and the why.
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"
#include "driver/history/why.hpp"
#include "driver/stats/change_points.hpp"

namespace iobench::history {

struct SeriesChange {
  const Timeline* timeline = nullptr;
  const RunPoint* first_run = nullptr;  // the first run of the new level
  stats::ChangePoint point;             // index into the runs with rows that count
  std::string change_id;
  const Ack* ack = nullptr;
  Explanation why;
};

// The per-run medians of elapsed over the rows that count, and the runs they come from (runs
// without such a row are left out).
struct MedianSeries {
  std::vector<double> medians;
  std::vector<const RunPoint*> points;
};
MedianSeries medians_of(const Timeline& timeline);

// The change points of one series; the why compares the level's runs before and after.
std::vector<SeriesChange> series_changes(const Timeline& timeline, const HistoryData& data,
                                         const stats::DetectorOptions& options = {});

// "change 3f2a9c1b@7b21e0aa read-raw (x, pipe) at run 21 (commit abc, 2026-...): elapsed mean
// 10.1 ms -> 12.2 ms (+20.8 %), p = 1.2e-09; why: ...; acknowledged by ...".
std::string describe_change(const SeriesChange& change);

}  // namespace iobench::history
