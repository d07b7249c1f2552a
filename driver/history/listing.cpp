#include "driver/history/listing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "driver/history/changes.hpp"
#include "driver/history/check.hpp"
#include "driver/history/export_imported.hpp"
#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {
namespace {

constexpr std::size_t kTrendRuns = 10;

// What names a series' metric in BMF: two series of one name get their ids beside.
std::string bmf_key(const StoredSeries& series) {
  return series.key.tool.empty() ? series_label(series)
                                 : fmt::format("{}\x1f{}", series.key.test, series.key.sink);
}

std::string short_commit(const StoredRun& run) {
  return run.labels.commit ? run.labels.commit->substr(0, 10) : std::string("-");
}

// The newest median against the median of the (at most kTrendRuns) before it, in percent.
std::optional<double> trend_pct_of(const MedianSeries& series) {
  if (series.medians.size() < 2) return std::nullopt;
  const std::size_t last = series.medians.size() - 1;
  const std::size_t first = last > kTrendRuns ? last - kTrendRuns : 0;
  const std::vector<double> before(series.medians.begin() + static_cast<long>(first),
                                   series.medians.begin() + static_cast<long>(last));
  return 100 * (series.medians[last] / stats::median(before) - 1);
}

// Why a trend is not a change where neither a change point nor check found one: too few runs
// for a change point, and what check made of the newest run, so that a trend of +98.4 % never
// stands beside a bare "none" (docs/history.md, "Living with it").
std::string why_no_change(const MedianSeries& medians, const CellCheck& cell) {
  const std::size_t needed_runs = 2 * stats::DetectorOptions{}.min_segment;
  std::string check_said = cell.not_judged;
  if (check_said.empty()) {
    check_said = cell.verdict == CellVerdict::kWithinDrift
                     ? fmt::format("within drift: {}", session_phrase(cell.sessions))
                     : std::string(to_string(cell.verdict));
  }
  if (medians.medians.size() < needed_runs) {
    return fmt::format(
        "none: too few runs to tell ({} with a row that counts, a change point "
        "needs {}; check: {})",
        medians.medians.size(), needed_runs, check_said);
  }
  return fmt::format("none: no change point, and check: {}", check_said);
}

// The last change point; where none is found yet and check flags the newest run, that (a level
// two runs old is a regression before it is a change point, named as check names it), so that a
// trend of +13.8 % never stands beside "none"; where check flags nothing either, why not.
std::string last_change_of(const HistoryData& data, const CellCheck& cell,
                           const MedianSeries& medians, std::optional<double> trend_pct) {
  const std::vector<SeriesChange> changes = series_changes(*cell.timeline, data);
  if (!changes.empty()) {
    const SeriesChange& c = changes.back();
    return fmt::format("{} ({:+.1f} % at {}{})", c.change_id, 100 * c.point.relative_change(),
                       short_commit(*c.first_run->run), c.ack != nullptr ? ", acknowledged" : "");
  }
  if (shows_change(cell.verdict) ||
      (cell.verdict == CellVerdict::kTooFewSessions && shows_change(cell.rows_verdict))) {
    const report::Row& row = cell.comparison;
    const RunPoint* came_in =
        cell.came_in != nullptr ? cell.came_in : &cell.timeline->points.back();
    return fmt::format("no change point yet; check: {} {} ({:+.1f} % since {})",
                       to_string(cell.verdict), cell.change_id,
                       100 * (row.new_median / row.base_median - 1), short_commit(*came_in->run));
  }
  // A trend within the minimum effect says no change itself.
  if (!trend_pct || std::abs(*trend_pct) <= cell.min_effect_pct) return "none";
  return why_no_change(medians, cell);
}

}  // namespace

void write_series_list(const HistoryData& data, const std::vector<Timeline>& timelines,
                       std::ostream& out) {
  out << fmt::format("{:<8}  {:>4}  {:>10}  {:>8}  {}\n", "series", "runs", "latest", "trend",
                     "test (input, sink): last change");
  const CheckReport check = check_history(data, timelines, CheckOptions{});
  for (const CellCheck& cell : check.cells) {
    const Timeline& timeline = *cell.timeline;
    const MedianSeries medians = medians_of(timeline);
    const std::optional<double> trend_pct = trend_pct_of(medians);
    const std::string trend_text = trend_pct ? fmt::format("{:+.1f} %", *trend_pct) : "-";
    out << fmt::format(
        "{:<8}  {:>4}  {:>10}  {:>8}  {}: {}\n", timeline.series->series_hash.substr(0, 8),
        timeline.points.size(),
        medians.medians.empty() ? std::string("-")
                                : value_text(medians.medians.back(), timeline.series->key),
        trend_text, series_label(*timeline.series), last_change_of(data, cell, medians, trend_pct));
  }
}

void write_series_detail(const HistoryData& data, const Timeline& timeline, std::ostream& out) {
  const StoredSeries& s = *timeline.series;
  out << fmt::format("series {}: {}\n", s.series_hash, series_label(s));
  if (!s.key.tool.empty()) {
    out << fmt::format("  measured by {}: {}, in {}, {} is better\n", s.key.tool, s.key.sink,
                       s.key.unit.empty() ? "no unit" : s.key.unit, s.key.direction);
  } else {
    out << fmt::format("  definition {}{}, input {}, cache {}, counters {}\n",
                       s.key.definition_hash, s.key.verified ? "" : " (unverified: never judged)",
                       s.key.input_identity, s.key.cache_mode,
                       s.key.counters.empty() ? "none" : s.key.counters);
  }
  out << fmt::format("  host class {}\n", s.key.host_class);
  std::map<const RunPoint*, const SeriesChange*> change_at;
  const std::vector<SeriesChange> changes = series_changes(timeline, data);
  for (const SeriesChange& c : changes) change_at[c.first_run] = &c;
  out << fmt::format("{:<20}  {:<10}  {:<12}  {:>5}  {:>10}  {:>10}  {:>10}  {}\n", "date",
                     "commit", "branch", "rows", "median", "min", "max", "notes");
  for (const RunPoint& point : timeline.points) {
    const std::vector<double> values = usable_elapsed(point, s);
    const StoredRun& run = *point.run;
    std::vector<std::string> notes;
    if (run.busy_cpus_start && *run.busy_cpus_start >= kBusyCpus) {
      notes.push_back(fmt::format("busy {:.2f} CPUs", *run.busy_cpus_start));
    }
    if (const std::string excluded = excluded_summary(point, s); !excluded.empty()) {
      notes.push_back("not counted: " + excluded);
    }
    if (const auto it = change_at.find(&point); it != change_at.end()) {
      notes.push_back(fmt::format("change {} ({:+.1f} %)", it->second->change_id,
                                  100 * it->second->point.relative_change()));
    }
    // Every ack of this run, a change point's or one of check's regressions (docs/history.md).
    const std::string id = change_id(s.series_hash, run.run_hash);
    for (const Ack& ack : data.acks) {
      if (ack.change_id == id) {
        notes.push_back(
            fmt::format("acknowledged {} by {} at {}: {}", id, ack.who, ack.acked_at, ack.why));
      }
    }
    const auto cell = [&](double v) {
      return values.empty() ? std::string("-") : value_text(v, s.key);
    };
    out << fmt::format("{:<20}  {:<10}  {:<12}  {:>5}  {:>10}  {:>10}  {:>10}  {}\n", run.date,
                       short_commit(run), run.labels.branch.value_or("-"),
                       fmt::format("{}/{}", values.size(), point.samples.size()),
                       cell(stats::median(values)), cell(stats::min(values)),
                       cell(stats::max(values)), fmt::join(notes, "; "));
  }
}

void write_bmf(const std::vector<Timeline>& timelines, const std::optional<std::string>& commit,
               std::ostream& out) {
  std::map<std::string, std::size_t> label_count;
  for (const Timeline& t : timelines) ++label_count[bmf_key(*t.series)];
  nlohmann::ordered_json report = nlohmann::ordered_json::object();
  for (const Timeline& timeline : timelines) {
    const RunPoint* chosen = export_point(timeline, commit);
    if (chosen == nullptr) continue;
    const StoredSeries& series = *timeline.series;
    if (!series.key.tool.empty()) {  // its own benchmark and measure, as its file named them
      const std::string name = label_count[bmf_key(series)] > 1
                                   ? fmt::format("{} {}", series.key.test,
                                                 std::string_view(series.series_hash).substr(0, 8))
                                   : series.key.test;
      report[name][series.key.sink] = imported_bmf_metric(*chosen, series);
      continue;
    }
    std::vector<double> elapsed = usable_elapsed(*chosen, *timeline.series);
    std::vector<double> rss;
    for (const StoredSample* sample : chosen->samples) {
      if (counts(*sample, *timeline.series))
        rss.push_back(static_cast<double>(sample->max_rss_kib));
    }
    const std::string label = series_label(*timeline.series);
    const std::string name =
        label_count[bmf_key(*timeline.series)] > 1
            ? fmt::format("{} {}", label,
                          std::string_view(timeline.series->series_hash).substr(0, 8))
            : label;
    report[name] = {
        {"latency",
         {{"value", stats::median(elapsed) * 1e9},
          {"lower_value", stats::min(elapsed) * 1e9},
          {"upper_value", stats::max(elapsed) * 1e9}}},
        {"max-rss",
         {{"value", stats::median(rss)},
          {"lower_value", stats::min(rss)},
          {"upper_value", stats::max(rss)}}},
    };
  }
  out << report.dump(2) << '\n';
}

}  // namespace iobench::history
