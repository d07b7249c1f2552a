#include "driver/history/publish_model.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace iobench::history {
namespace {

// What a regression shows: the level before and after, its p-value, why, and the line that says
// it, from check's comparison or from a change point.
struct RegressionFigures {
  double before_s = 0;
  double after_s = 0;
  std::optional<double> p_value;
  Explanation why;
  std::string summary;
};

// The regression: its series, the run that starts it, where it was found, and its figures.
SiteRegression regression_at(std::size_t series, const StoredSeries& stored, const StoredRun& run,
                             RegressionSource source, RegressionFigures figures) {
  SiteRegression r;
  r.series = series;
  r.change_id = change_id(stored.series_hash, run.run_hash);
  r.atom_id = fmt::format("urn:iobench:change:{}@{}", stored.series_hash, run.run_hash);
  r.source = source;
  r.run = &run;
  r.updated = feed_date(run);
  r.before_s = figures.before_s;
  r.after_s = figures.after_s;
  r.p_value = figures.p_value;
  r.why = std::move(figures.why);
  r.summary = std::move(figures.summary);
  return r;
}

// Pinned to the run where the slower level came in (c4 when c4 and c5 are both slow), so that
// the entry keeps its id while the level stays, and an ack of it is one of the same change.
SiteRegression from_check(const CellCheck& cell, std::size_t series) {
  const RunPoint* came_in = cell.came_in != nullptr ? cell.came_in : &cell.timeline->points.back();
  const report::Row& row = cell.comparison;
  return regression_at(
      series, *cell.timeline->series, *came_in->run, RegressionSource::kNewestRun,
      {row.base_median, row.new_median, row.p_value, cell.why, describe_cell(cell)});
}

SiteRegression from_change(const SeriesChange& change, std::size_t series) {
  const stats::ChangePoint& point = change.point;
  return regression_at(
      series, *change.timeline->series, *change.first_run->run, RegressionSource::kChangePoint,
      {point.mean_before, point.mean_after, point.p_value, change.why, describe_change(change)});
}

// A slower level is open while nobody acknowledged it and no later change point went back down
// (docs/reports.md, "The history site").
bool open_slowdown(const std::vector<SeriesChange>& changes, std::size_t i) {
  if (changes[i].ack != nullptr || changes[i].point.relative_change() <= 0) return false;
  return std::none_of(changes.begin() + static_cast<long>(i) + 1, changes.end(),
                      [](const SeriesChange& later) { return later.point.relative_change() < 0; });
}

}  // namespace

std::string feed_date(const StoredRun& run) {
  if (!run.date.empty()) return run.date;
  if (!run.added_at.empty()) return run.added_at;
  return "1970-01-01T00:00:00Z";
}

SiteModel build_site_model(const HistoryData& data, const std::vector<Timeline>& timelines,
                           const std::string& store_name, const CheckOptions& options) {
  SiteModel site;
  site.feed_id = fmt::format("urn:iobench:history:{}", hex_hash64(store_name));
  site.updated = "1970-01-01T00:00:00Z";
  const CheckReport check = check_history(data, timelines, options);
  for (std::size_t s = 0; s < timelines.size(); ++s) {
    const Timeline& timeline = timelines[s];
    SiteSeries series;
    series.timeline = &timeline;
    series.page = fmt::format("series-{}.html", timeline.series->series_hash);
    const MedianSeries medians = medians_of(timeline);
    if (!medians.medians.empty()) series.latest_median_s = medians.medians.back();
    series.changes = series_changes(timeline, data);
    for (const RunPoint& point : timeline.points) {
      site.updated = std::max(site.updated, feed_date(*point.run));
    }
    site.series.push_back(std::move(series));
  }
  for (std::size_t s = 0; s < site.series.size(); ++s) {
    const std::vector<SeriesChange>& changes = site.series[s].changes;
    const std::size_t before = site.regressions.size();
    for (std::size_t i = 0; i < changes.size(); ++i) {
      if (open_slowdown(changes, i)) site.regressions.push_back(from_change(changes[i], s));
    }
    // check's regression of the newest run is named by that run, so each new slow run would be
    // a new entry: an open slower level, which keeps its id, stands for it.
    if (site.regressions.size() == before && check.cells[s].verdict == CellVerdict::kRegression) {
      site.regressions.push_back(from_check(check.cells[s], s));
    }
  }
  std::stable_sort(site.regressions.begin(), site.regressions.end(),
                   [](const SiteRegression& a, const SiteRegression& b) {
                     if (a.updated != b.updated) return a.updated > b.updated;
                     return a.change_id < b.change_id;
                   });
  return site;
}

}  // namespace iobench::history
