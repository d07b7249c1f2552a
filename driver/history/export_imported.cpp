#include "driver/history/export_imported.hpp"

#include <algorithm>
#include <utility>

#include "driver/history/check.hpp"
#include "driver/report/hyperfine_json.hpp"
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

// One series' result as hyperfine exports it, from the rows of `point` that count. CPU times and
// max RSS are iobench's own rows' (an import has none: hyperfine's are not kept).
report::HyperfineResult hyperfine_result(const RunPoint& point, const StoredSeries& series) {
  report::HyperfineResult result;
  result.command = series.key.tool.empty() ? series_label(series) : series.key.test;
  std::vector<double> user_s;
  std::vector<double> system_s;
  std::vector<double> max_rss_kib;
  for (const StoredSample* row : counted_in_order(point, series)) {
    result.times_s.push_back(row->elapsed_s);
    result.exit_codes.push_back(row->exit_code.value_or(0));
    user_s.push_back(row->user_s);
    system_s.push_back(row->system_s);
    max_rss_kib.push_back(static_cast<double>(row->max_rss_kib));
  }
  result.mean_s = stats::mean(result.times_s);
  result.stddev_s = stats::stddev(result.times_s);  // NaN for one run: hyperfine writes null
  result.median_s = stats::median(result.times_s);
  result.min_s = stats::min(result.times_s);
  result.max_s = stats::max(result.times_s);
  if (series.key.tool.empty()) {
    result.user_mean_s = stats::mean(user_s);
    result.system_mean_s = stats::mean(system_s);
    result.max_rss_kib = std::move(max_rss_kib);
  }
  return result;
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
  std::vector<report::HyperfineResult> results;
  for (const Timeline& timeline : timelines) {
    const StoredSeries& series = *timeline.series;
    const bool seconds =
        series.key.tool.empty() || (series.key.tool == "hyperfine" && series.key.unit == "s");
    const RunPoint* point = seconds ? export_point(timeline, commit) : nullptr;
    if (point != nullptr) results.push_back(hyperfine_result(*point, series));
  }
  report::write_hyperfine_json(results, nullptr, out);
}

}  // namespace iobench::history
