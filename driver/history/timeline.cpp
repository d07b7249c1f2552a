#include "driver/history/timeline.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "common/error.hpp"

namespace iobench::history {

std::string change_id(const std::string& series_hash, const std::string& run_hash) {
  return fmt::format("{}@{}", series_hash.substr(0, 8), run_hash.substr(0, 8));
}

const Ack* ack_at(const Timeline& timeline, const RunPoint& point, const std::vector<Ack>& acks) {
  const auto acked = [&](const StoredSeries* series) -> const Ack* {
    const std::string id = change_id(series->series_hash, point.run->run_hash);
    for (const Ack& ack : acks) {
      if (ack.change_id == id) return &ack;
    }
    return nullptr;
  };
  if (const Ack* ack = acked(timeline.series)) return ack;
  for (const StoredSeries* earlier : timeline.earlier_series) {
    if (const Ack* ack = acked(earlier)) return ack;
  }
  return nullptr;
}

std::vector<Timeline> build_timelines(const HistoryData& data) {
  std::unordered_map<std::int64_t, const StoredRun*> runs;
  for (const auto& run : data.runs) runs.emplace(run.run_id, &run);
  std::unordered_map<std::int64_t, std::size_t> series_index;
  std::vector<Timeline> timelines;
  timelines.reserve(data.series.size());
  for (const auto& series : data.series) {
    series_index.emplace(series.series_id, timelines.size());
    timelines.push_back(Timeline{&series, {}, {}});
  }
  // Per series, the point of each run: rows of one run are contiguous in the store, but need
  // not be; a map keeps it right either way.
  std::vector<std::unordered_map<std::int64_t, std::size_t>> point_of(timelines.size());
  for (const auto& sample : data.samples) {
    const auto s = series_index.find(sample.series_id);
    const auto r = runs.find(sample.run_id);
    if (s == series_index.end() || r == runs.end()) continue;
    Timeline& timeline = timelines[s->second];
    auto [it, made] = point_of[s->second].emplace(sample.run_id, timeline.points.size());
    if (made) timeline.points.push_back(RunPoint{r->second, {}});
    timeline.points[it->second].samples.push_back(&sample);
  }
  std::vector<Timeline> with_rows;
  for (auto& timeline : timelines) {
    if (timeline.points.empty()) continue;
    std::stable_sort(timeline.points.begin(), timeline.points.end(),
                     [](const RunPoint& a, const RunPoint& b) {
                       if (a.run->date != b.run->date) return a.run->date < b.run->date;
                       return a.run->run_id < b.run->run_id;
                     });
    with_rows.push_back(std::move(timeline));
  }
  return with_rows;
}

bool counts(const StoredSample& sample, const StoredSeries& series) {
  return sample.status == runfile::RunStatus::kOk && series.key.verified;
}

std::vector<double> usable_elapsed(const RunPoint& point, const StoredSeries& series) {
  std::vector<double> values;
  for (const StoredSample* sample : point.samples) {
    if (counts(*sample, series)) values.push_back(sample->elapsed_s);
  }
  return values;
}

std::string excluded_summary(const RunPoint& point, const StoredSeries& series) {
  std::map<std::string, std::size_t> by_status;
  for (const StoredSample* sample : point.samples) {
    if (counts(*sample, series)) continue;
    by_status[series.key.verified ? std::string(to_string(sample->status)) : "unverified"]++;
  }
  std::vector<std::string> parts;
  parts.reserve(by_status.size());
  for (const auto& [status, n] : by_status) parts.push_back(fmt::format("{} {}", n, status));
  return fmt::format("{}", fmt::join(parts, ", "));
}

const Timeline& find_timeline(const std::vector<Timeline>& timelines, const std::string& name) {
  std::vector<const Timeline*> by_test;
  for (const Timeline& timeline : timelines) {
    std::vector<const StoredSeries*> names{timeline.series};
    names.insert(names.end(), timeline.earlier_series.begin(), timeline.earlier_series.end());
    bool test_named = false;
    for (const StoredSeries* series : names) {
      const std::string& hash = series->series_hash;
      if (name.size() >= 4 && hash.compare(0, name.size(), name) == 0) return timeline;
      test_named |= series->key.test == name;
    }
    if (test_named) by_test.push_back(&timeline);
  }
  if (by_test.size() == 1) return *by_test.front();
  if (by_test.empty()) {
    throw Error(fmt::format("no series '{}' in the store (iobench history list shows them)", name));
  }
  std::vector<std::string> candidates;
  candidates.reserve(by_test.size());
  for (const Timeline* t : by_test) {
    candidates.push_back(
        fmt::format("{} {}", t->series->series_hash.substr(0, 8), t->series->key.conditions()));
  }
  throw Error(fmt::format("test '{}' has {} series; name one by its id: {}", name, by_test.size(),
                          fmt::join(candidates, ", ")));
}

}  // namespace iobench::history
