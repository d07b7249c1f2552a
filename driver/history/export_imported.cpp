#include "driver/history/export_imported.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "driver/history/check.hpp"
#include "driver/stats/descriptive.hpp"

namespace iobench::history {
namespace {

// The rows of `point` that count, in the order they were measured.
std::vector<const StoredSample*> counted_in_order(const RunPoint& point,
                                                  const StoredSeries& series) {
  std::vector<const StoredSample*> rows;
  for (const StoredSample* sample : point.samples) {
    if (counts(*sample, series)) rows.push_back(sample);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const StoredSample* a, const StoredSample* b) {
    return a->repeat < b->repeat;
  });
  return rows;
}

}  // namespace

const RunPoint* export_point(const Timeline& timeline, const std::optional<std::string>& commit) {
  const RunPoint* chosen = nullptr;
  for (const RunPoint& point : timeline.points) {
    const auto& label = point.run->labels.commit;
    const bool wanted = !commit || (label && label->compare(0, commit->size(), *commit) == 0);
    if (wanted && !usable_elapsed(point, *timeline.series).empty()) chosen = &point;
  }
  return chosen;
}

nlohmann::ordered_json imported_bmf_metric(const RunPoint& point, const StoredSeries& series) {
  const std::vector<const StoredSample*> rows = counted_in_order(point, series);
  nlohmann::ordered_json metric = nlohmann::ordered_json::object();
  if (rows.size() == 1 && rows.front()->summary_n) {
    metric["value"] = rows.front()->elapsed_s;
    if (rows.front()->summary_low) metric["lower_value"] = *rows.front()->summary_low;
    if (rows.front()->summary_high) metric["upper_value"] = *rows.front()->summary_high;
    return metric;
  }
  std::vector<double> values;
  values.reserve(rows.size());
  for (const StoredSample* row : rows) values.push_back(row->elapsed_s);
  metric["value"] = stats::median(values);
  metric["lower_value"] = stats::min(values);
  metric["upper_value"] = stats::max(values);
  return metric;
}

void write_hyperfine_json(const std::vector<Timeline>& timelines,
                          const std::optional<std::string>& commit, std::ostream& out) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const Timeline& timeline : timelines) {
    const StoredSeries& series = *timeline.series;
    const bool seconds =
        series.key.tool.empty() || (series.key.tool == "hyperfine" && series.key.unit == "s");
    const RunPoint* point = seconds ? export_point(timeline, commit) : nullptr;
    if (point == nullptr) continue;
    std::vector<double> times;
    std::vector<int> exit_codes;
    for (const StoredSample* row : counted_in_order(*point, series)) {
      times.push_back(row->elapsed_s);
      exit_codes.push_back(row->exit_code.value_or(0));
    }
    nlohmann::ordered_json result;
    result["command"] = series.key.tool.empty() ? series_label(series) : series.key.test;
    result["mean"] = stats::mean(times);
    const double stddev = stats::stddev(times);  // NaN for one run: hyperfine writes null
    result["stddev"] =
        std::isnan(stddev) ? nlohmann::ordered_json() : nlohmann::ordered_json(stddev);
    result["median"] = stats::median(times);
    result["min"] = stats::min(times);
    result["max"] = stats::max(times);
    result["times"] = times;
    result["exit_codes"] = exit_codes;
    results.push_back(std::move(result));
  }
  out << nlohmann::ordered_json{{"results", results}}.dump(2) << '\n';
}

}  // namespace iobench::history
