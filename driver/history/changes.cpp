#include "driver/history/changes.hpp"

#include <fmt/format.h>

#include "driver/history/check.hpp"
#include "driver/report/compare.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {

MedianSeries medians_of(const Timeline& timeline) {
  MedianSeries series;
  for (const RunPoint& point : timeline.points) {
    const std::vector<double> values = usable_elapsed(point, *timeline.series);
    if (values.empty()) continue;
    series.medians.push_back(stats::median(values));
    series.points.push_back(&point);
  }
  return series;
}

std::vector<SeriesChange> series_changes(const Timeline& timeline, const HistoryData& data,
                                         const stats::DetectorOptions& options) {
  const MedianSeries series = medians_of(timeline);
  const std::vector<stats::ChangePoint> points = stats::find_change_points(series.medians, options);
  std::vector<SeriesChange> changes;
  for (std::size_t i = 0; i < points.size(); ++i) {
    SeriesChange change;
    change.timeline = &timeline;
    change.point = points[i];
    change.first_run = series.points[points[i].index];
    change.change_id = change_id(timeline.series->series_hash, change.first_run->run->run_hash);
    change.ack = ack_at(timeline, *change.first_run, data.acks);
    const std::size_t begin = i == 0 ? 0 : points[i - 1].index;
    const std::size_t end = i + 1 < points.size() ? points[i + 1].index : series.points.size();
    const std::vector<const RunPoint*> before(
        series.points.begin() + static_cast<long>(begin),
        series.points.begin() + static_cast<long>(points[i].index));
    const std::vector<const RunPoint*> after(
        series.points.begin() + static_cast<long>(points[i].index),
        series.points.begin() + static_cast<long>(end));
    change.why = explain_change(counted_rows(before, *timeline.series),
                                counted_rows(after, *timeline.series));
    changes.push_back(std::move(change));
  }
  return changes;
}

std::string describe_change(const SeriesChange& change) {
  const StoredRun& run = *change.first_run->run;
  const SeriesKey& key = change.timeline->series->key;
  std::string line = fmt::format(
      "change {} {} at {} (commit {}): {} mean {} -> {} ({:+.1f} %){}; {}", change.change_id,
      series_label(*change.timeline->series), run.date, run.labels.commit.value_or("unknown"),
      key.tool.empty() ? "elapsed" : key.sink, value_text(change.point.mean_before, key),
      value_text(change.point.mean_after, key), 100 * change.point.relative_change(),
      report::p_phrase(change.point.p_value), format_explanation(change.why));
  if (change.ack != nullptr) {
    line += fmt::format("; acknowledged by {} at {}: {}", change.ack->who, change.ack->acked_at,
                        change.ack->why);
  }
  return line;
}

}  // namespace iobench::history
