#include "driver/history/rename.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/error.hpp"

namespace iobench::history {
namespace {

using Successors = std::unordered_map<std::string, std::string>;

// Where `hash` ends up along the renames; a loop (refused when stored, but a store may be edited
// by hand) stops where it would come back.
std::string final_hash(const Successors& next, const std::string& hash) {
  std::unordered_set<std::string> seen{hash};
  std::string at = hash;
  for (auto it = next.find(at); it != next.end(); it = next.find(at)) {
    if (!seen.insert(it->second).second) break;
    at = it->second;
  }
  return at;
}

// What must agree for two series to be one renamed; "" when all does. A series never mixes
// tools, units or measures: check would compare their raw numbers (314 µs against 710 ns).
std::string what_differs(const SeriesKey& a, const SeriesKey& b) {
  std::vector<std::string> parts;
  const auto differ = [&parts](const char* what, const std::string& x, const std::string& y) {
    if (x != y) parts.push_back(fmt::format("{} {} vs {}", what, x, y));
  };
  const auto tool = [](const SeriesKey& k) { return k.tool.empty() ? "iobench" : k.tool; };
  const auto unit = [](const SeriesKey& k) { return k.unit.empty() ? "none" : k.unit; };
  differ("tool", tool(a), tool(b));
  differ("unit", unit(a), unit(b));
  differ("direction", a.direction, b.direction);
  differ("input", a.input, b.input);
  // An import's sink is its measure (real_time, cpu_time, throughput).
  differ(a.tool.empty() && b.tool.empty() ? "sink" : "measure", a.sink, b.sink);
  differ("cache", a.cache_mode, b.cache_mode);
  differ("counters", a.counters, b.counters);
  differ("host class", a.host_class, b.host_class);
  if (a.verified != b.verified) parts.emplace_back("one is verified, the other not");
  return fmt::format("{}", fmt::join(parts, ", "));
}

// What plan_rename did not always refuse: numbers of another tool, unit or direction.
bool other_kind(const SeriesKey& a, const SeriesKey& b) {
  return a.tool != b.tool || a.unit != b.unit || a.direction != b.direction;
}

}  // namespace

void continue_renamed(std::vector<Timeline>& timelines, const std::vector<SeriesRename>& renames) {
  if (renames.empty()) return;
  Successors next;
  for (const SeriesRename& rename : renames) next[rename.old_hash] = rename.new_hash;
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    index.emplace(timelines[i].series->series_hash, i);
  }
  std::vector<bool> gone(timelines.size(), false);
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    // The last series along the chain that has rows: a continuation not measured since (pruned,
    // say) leaves the runs with the last one that has them.
    std::size_t target = i;
    std::unordered_set<std::string> seen{timelines[i].series->series_hash};
    for (auto it = next.find(timelines[i].series->series_hash);
         it != next.end() && seen.insert(it->second).second; it = next.find(it->second)) {
      const auto found = index.find(it->second);
      if (found != index.end()) target = found->second;
    }
    // A rename stored before plan_rename refused another tool, unit or direction joins
    // nothing: the two stay two series, one missing and one new, which check does not pass.
    if (target == i || other_kind(timelines[i].series->key, timelines[target].series->key)) {
      continue;
    }
    Timeline& into = timelines[target];
    into.earlier_series.push_back(timelines[i].series);
    into.points.insert(into.points.end(), timelines[i].points.begin(), timelines[i].points.end());
    gone[i] = true;
  }
  std::vector<Timeline> kept;
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    if (gone[i]) continue;
    std::stable_sort(timelines[i].points.begin(), timelines[i].points.end(),
                     [](const RunPoint& a, const RunPoint& b) {
                       if (a.run->date != b.run->date) return a.run->date < b.run->date;
                       return a.run->run_id < b.run->run_id;
                     });
    kept.push_back(std::move(timelines[i]));
  }
  timelines = std::move(kept);
}

SeriesRename plan_rename(const HistoryData& data, const std::vector<SeriesRename>& existing,
                         const std::string& old_name, const std::string& new_name) {
  const std::vector<Timeline> timelines = build_timelines(data);
  const Timeline& from = find_timeline(timelines, old_name);
  const Timeline& to = find_timeline(timelines, new_name);
  const std::string what = fmt::format("history rename {} {}", old_name, new_name);
  if (&from == &to)
    throw Error(
        fmt::format("{}: both name series {}", what, from.series->series_hash.substr(0, 8)));
  Successors next;
  for (const SeriesRename& rename : existing) {
    if (rename.old_hash != from.series->series_hash) next[rename.old_hash] = rename.new_hash;
  }
  if (final_hash(next, to.series->series_hash) == from.series->series_hash) {
    throw Error(fmt::format("{}: {} already continues as {}; renaming back would make a loop", what,
                            to.series->series_hash.substr(0, 8),
                            from.series->series_hash.substr(0, 8)));
  }
  const std::string differs = what_differs(from.series->key, to.series->key);
  if (!differs.empty()) {
    throw Error(
        fmt::format("{}: only the command may change, and these differ: {}", what, differs));
  }
  for (const RunPoint& a : from.points) {
    for (const RunPoint& b : to.points) {
      if (a.run == b.run) {
        throw Error(fmt::format(
            "{}: both have rows in run {} (commit {}): two commands measured side by side, not "
            "one renamed",
            what, a.run->run_hash.substr(0, 8), a.run->labels.commit.value_or("unknown")));
      }
    }
  }
  SeriesRename rename;
  rename.old_hash = from.series->series_hash;
  rename.new_hash = to.series->series_hash;
  return rename;
}

}  // namespace iobench::history
