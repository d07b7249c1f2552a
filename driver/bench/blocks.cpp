#include "driver/bench/blocks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <ostream>

#include "driver/stats/descriptive.hpp"
#include "driver/util/format.hpp"
#include "driver/util/text.hpp"

namespace iobench::bench {

using report::ElapsedFigure;
using report::fitting_unit;
using report::format_in_unit;
using report::format_time;
using report::GroupStats;
using report::Summary;
using report::TimeUnit;
using report::unit_name;

namespace {

using runfile::Metric;

// The block's figures in one unit: -u's, else hyperfine's pick from the median.
struct BlockUnit {
  TimeUnit unit;
  [[nodiscard]] std::string time(double seconds) const {
    return fmt::format("{} {}", format_in_unit(seconds, unit), unit_name(unit));
  }
};

std::string place_of(const runfile::Group& group) {
  const std::string& input = group.key[1];
  return (input.empty() ? "" : input + ", ") + group.key[2] + " sink";
}

bool several_places(const runfile::RunSet& set) {
  return std::any_of(set.groups.begin(), set.groups.end(), [&](const runfile::Group& g) {
    return place_of(g) != place_of(set.groups.front());
  });
}

// "2 failed, 1 timed out": the rows left out, by status; the disturbed ones only when
// `with_disturbed` (the summary line counts those).
std::string left_out(const runfile::Group& group, bool with_disturbed) {
  std::vector<std::string> parts;
  for (std::size_t s = 1; s < runfile::kStatusCount; ++s) {
    if (group.rows[s] == 0) continue;
    if (!with_disturbed && s == static_cast<std::size_t>(runfile::RunStatus::kDisturbed)) continue;
    parts.push_back(fmt::format("{} {}", group.rows[s], runfile::kStatusWords[s]));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

// hyperfine's labels are padded to one column; ours are wider, so the column is ours.
constexpr std::string_view kTimeLabel = "Time (median ± 95 % CI):";
constexpr std::string_view kRangeLabel = "Range (min … max):";

std::string padded(std::string_view label) {
  const std::size_t width = util::display_width(kTimeLabel);
  return std::string(label) + std::string(width - util::display_width(label), ' ');
}

void write_block(const GroupStats& g, std::size_t number, bool with_place, TimeUnit asked,
                 std::ostream& out) {
  const runfile::Group& group = *g.group;
  out << fmt::format("Benchmark {}: {}{}\n", number, group.key[0],
                     with_place ? " (" + place_of(group) + ")" : "");
  const stats::SampleStats& el = g.metric(Metric::kElapsed);
  if (el.n == 0) {
    const std::string why = left_out(group, true);
    out << fmt::format("  no ok run{}\n", why.empty() ? "" : ": " + why);
    return;
  }
  const BlockUnit u{asked != TimeUnit::kAuto ? asked : fitting_unit(el.median)};
  std::string time = fmt::format("{:>8}", u.time(el.median));
  const double half_width = g.elapsed_ci95.half_width;
  if (std::isfinite(half_width)) time += fmt::format(" ± {:>8}", u.time(half_width));
  out << fmt::format("  {} {}    [User: {}, System: {}]\n", padded(kTimeLabel), time,
                     u.time(g.metric(Metric::kUser).median),
                     u.time(g.metric(Metric::kSystem).median));
  const std::string others = left_out(group, false);
  out << fmt::format("  {} {:>8} … {:>8}    {} run{}{}\n", padded(kRangeLabel), u.time(el.min),
                     u.time(el.max), el.n, el.n == 1 ? "" : "s",
                     others.empty() ? "" : " (" + others + " left out)");
  if (group.from_disturbed_runs) {
    out << fmt::format(
        "  Every run was disturbed: these figures are of its {} disturbed run{} "
        "(docs/driver.md, \"Disturbance\")\n",
        el.n, el.n == 1 ? "" : "s");
  }
}

}  // namespace

void write_bench_blocks(const Summary& summary, TimeUnit unit, std::ostream& out) {
  const bool with_place = !summary.set->groups.empty() && several_places(*summary.set);
  std::size_t number = 0;
  for (const GroupStats& g : summary.groups) {
    if (number > 0) out << '\n';
    write_block(g, ++number, with_place, unit, out);
  }
}

std::string runs_summary_line(const Summary& summary, const ElapsedFigure& figure,
                              const std::optional<runfile::RunMeta>& meta, TimeUnit unit,
                              bool verbose) {
  std::vector<std::string> parts;
  if (stopped_early(meta)) {
    parts.emplace_back("PARTIAL: the runs stopped before the plan's end (every finished run kept)");
  }
  std::string shown = "Figures: " + figure.name();
  if (figure.startup) {
    shown += fmt::format(" ({} took {})", util::join_argv(figure.startup->command),
                         format_time(figure.startup->elapsed_s, unit));
  }
  parts.push_back(shown);
  std::size_t ok = 0;
  std::size_t outliers = 0;
  std::array<std::size_t, runfile::kStatusCount> rows{};
  for (const GroupStats& g : summary.groups) {
    ok += g.group->ok_runs();
    outliers += g.elapsed_outliers;
    for (std::size_t s = 1; s < runfile::kStatusCount; ++s) rows[s] += g.group->rows[s];
  }
  std::string runs = fmt::format("{} ok run{}", ok, ok == 1 ? "" : "s");
  for (std::size_t s = 1; s < runfile::kStatusCount; ++s) {
    if (rows[s] > 0) runs += fmt::format(", {} {}", rows[s], runfile::kStatusWords[s]);
  }
  if (std::accumulate(rows.begin(), rows.end(), std::size_t{0}) > 0) runs += " (left out)";
  parts.push_back(runs);
  if (outliers > 0)
    parts.push_back(fmt::format("{} outlier{} (kept)", outliers, outliers == 1 ? "" : "s"));
  if (!verbose && !summary.warnings.empty()) {
    parts.push_back(fmt::format("{} warning{} about the figures", summary.warnings.size(),
                                summary.warnings.size() == 1 ? "" : "s"));
  }
  if (meta && meta->provenance && meta->provenance->load_average_start) {
    parts.push_back(fmt::format("load {:.2f} at the start", *meta->provenance->load_average_start));
  }
  if (!verbose) parts.emplace_back("--verbose for the environment, the tables and the warnings");
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<std::size_t> order_by_time(const runfile::RunSet& set) {
  std::vector<std::string> places;
  for (const runfile::Group& g : set.groups) {
    if (std::find(places.begin(), places.end(), place_of(g)) == places.end())
      places.push_back(place_of(g));
  }
  const auto place_index = [&](const runfile::Group& g) {
    return std::find(places.begin(), places.end(), place_of(g)) - places.begin();
  };
  const auto median_or_last = [](const runfile::Group& g) {
    return g.ok_count() == 0 ? INFINITY : stats::median(g.metric(Metric::kElapsed));
  };
  std::vector<std::size_t> order(set.groups.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& ga = set.groups[a];
    const auto& gb = set.groups[b];
    if (place_index(ga) != place_index(gb)) return place_index(ga) < place_index(gb);
    return median_or_last(ga) < median_or_last(gb);
  });
  return order;
}

std::vector<std::size_t> order_by_command(const runfile::RunSet& set,
                                          const std::vector<std::string>& commands) {
  std::vector<std::string> places;
  for (const runfile::Group& g : set.groups) {
    if (std::find(places.begin(), places.end(), place_of(g)) == places.end())
      places.push_back(place_of(g));
  }
  const auto rank = [&](const runfile::Group& g) {
    return std::make_pair(std::find(commands.begin(), commands.end(), g.key[0]) - commands.begin(),
                          std::find(places.begin(), places.end(), place_of(g)) - places.begin());
  };
  std::vector<std::size_t> order(set.groups.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return rank(set.groups[a]) < rank(set.groups[b]);
  });
  return order;
}

runfile::RunSet reordered(const runfile::RunSet& set, const std::vector<std::size_t>& order) {
  runfile::RunSet out = set;
  out.groups.clear();
  for (const std::size_t i : order) out.groups.push_back(set.groups[i]);
  return out;
}

}  // namespace iobench::bench
