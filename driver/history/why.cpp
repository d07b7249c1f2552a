#include "driver/history/why.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/mann_whitney.hpp"
#include "driver/util/format.hpp"

namespace iobench::history {
namespace {

enum class Unit { kCpuSeconds, kKib, kCount };

constexpr std::string_view kInvoluntarySwitches = "involuntary switches";

struct Figure {
  std::string name;
  Unit unit = Unit::kCount;
  std::function<std::optional<double>(const StoredSample&)> value;
  [[nodiscard]] bool seconds() const { return unit == Unit::kCpuSeconds; }
};

double resolution_for(Unit unit, const Resolution& resolution) {
  switch (unit) {
    case Unit::kCpuSeconds:
      return resolution.cpu_time_s;
    case Unit::kKib:
      return resolution.max_rss_kib;
    case Unit::kCount:
      break;
  }
  return resolution.count;
}

std::vector<Figure> figures() {
  constexpr Unit kCount = Unit::kCount;
  std::vector<Figure> list{
      {"user", Unit::kCpuSeconds, [](const StoredSample& s) { return s.user_s; }},
      {"system", Unit::kCpuSeconds, [](const StoredSample& s) { return s.system_s; }},
      {"max RSS KiB", Unit::kKib,
       [](const StoredSample& s) { return static_cast<double>(s.max_rss_kib); }},
      {"minor faults", kCount, [](const StoredSample& s) { return static_cast<double>(s.minflt); }},
      {"major faults", kCount, [](const StoredSample& s) { return static_cast<double>(s.majflt); }},
      {"voluntary switches", kCount,
       [](const StoredSample& s) { return static_cast<double>(s.nvcsw); }},
      {std::string(kInvoluntarySwitches), kCount,
       [](const StoredSample& s) { return static_cast<double>(s.nivcsw); }},
      {"blocks in", kCount, [](const StoredSample& s) { return static_cast<double>(s.inblock); }},
      {"blocks out", kCount, [](const StoredSample& s) { return static_cast<double>(s.oublock); }},
  };
  for (std::size_t c = 0; c < runfile::kCounterCount; ++c) {
    list.push_back({std::string(runfile::kCounterColumns[c]), kCount,
                    [c](const StoredSample& s) -> std::optional<double> {
                      if (!s.counters[c]) return std::nullopt;
                      return static_cast<double>(*s.counters[c]);
                    }});
  }
  return list;
}

std::vector<double> values_of(const Figure& figure, const std::vector<const StoredSample*>& rows) {
  std::vector<double> values;
  for (const StoredSample* row : rows) {
    if (const auto v = figure.value(*row)) values.push_back(*v);
  }
  return values;
}

std::string figure_text(double value, bool seconds) {
  if (seconds) return util::format_seconds(value);
  if (std::fabs(value) >= 1000) return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

}  // namespace

Resolution resolution_of(const StoredRun& /*run*/) {
  return Resolution{};  // the store has no tick rate yet (why.hpp, kCpuTimeResolution_s)
}

Resolution coarsest(const Resolution& a, const Resolution& b) {
  return Resolution{std::max(a.cpu_time_s, b.cpu_time_s), std::max(a.max_rss_kib, b.max_rss_kib),
                    std::max(a.count, b.count)};
}

std::vector<const StoredSample*> counted_rows(const std::vector<const RunPoint*>& points,
                                              const StoredSeries& series) {
  std::vector<const StoredSample*> rows;
  for (const RunPoint* point : points) {
    for (const StoredSample* sample : point->samples) {
      if (counts(*sample, series)) rows.push_back(sample);
    }
  }
  return rows;
}

Explanation explain_change(const std::vector<const StoredSample*>& before,
                           const std::vector<const StoredSample*>& after, double alpha,
                           const Resolution& resolution) {
  Explanation explanation;
  bool work_moved = false;
  const Figure elapsed{"elapsed", Unit::kCpuSeconds,
                       [](const StoredSample& s) { return s.elapsed_s; }};
  const double elapsed_change = std::fabs(stats::median(values_of(elapsed, after)) -
                                          stats::median(values_of(elapsed, before)));
  for (const Figure& figure : figures()) {
    const std::vector<double> a = values_of(figure, before);
    const std::vector<double> b = values_of(figure, after);
    if (a.empty() || b.empty()) continue;
    const double base = stats::median(a);
    const double now = stats::median(b);
    const double larger = std::max(std::fabs(base), std::fabs(now));
    if (larger == 0 || std::fabs(now - base) < kMovedRatio * larger) continue;
    if (!(std::fabs(now - base) > resolution_for(figure.unit, resolution))) continue;
    if (figure.seconds() && !(std::fabs(now - base) >= kShareOfElapsed * elapsed_change)) continue;
    if (!(stats::mann_whitney_u(a, b).p_value < alpha)) continue;
    explanation.moved.push_back({figure.name, base, now});
    // Involuntary switches are others taking the CPU (or a tick's preemption), the machine's
    // doing, not the work's; max RSS follows the work only together with something else.
    work_moved |= figure.name != "max RSS KiB" && figure.name != kInvoluntarySwitches;
  }
  explanation.reading =
      work_moved ? "the work changed"
                 : "only elapsed moved, user and system time and the counters held: waiting, or "
                   "the machine, most likely";
  return explanation;
}

std::string format_explanation(const Explanation& explanation) {
  const std::vector<Figure> all = figures();
  std::vector<std::string> parts;
  for (const Movement& m : explanation.moved) {
    bool seconds = false;
    for (const Figure& f : all) seconds |= f.name == m.figure && f.seconds();
    std::string factor;
    if (m.base_median > 0 && m.new_median > 0) {
      factor = fmt::format(" (×{})", util::format_factor(m.new_median / m.base_median));
    }
    parts.push_back(fmt::format("{} {} -> {}{}", m.figure, figure_text(m.base_median, seconds),
                                figure_text(m.new_median, seconds), factor));
  }
  if (parts.empty()) return fmt::format("why: {}", explanation.reading);
  return fmt::format("why: {}: {}", fmt::join(parts, ", "), explanation.reading);
}

}  // namespace iobench::history
