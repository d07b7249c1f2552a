#include "driver/report/summary.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cmath>
#include <map>
#include <string_view>

#include "driver/util/format.hpp"

namespace iobench::summary {
namespace {

using results::Metric;

std::optional<std::uint64_t> input_size(
    const std::string& path, std::map<std::string, std::optional<std::uint64_t>>& cache) {
  if (path.empty() || path == "-") return std::nullopt;
  const auto found = cache.find(path);
  if (found != cache.end()) return found->second;
  std::optional<std::uint64_t> size;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    size = static_cast<std::uint64_t>(st.st_size);
  }
  cache.emplace(path, size);
  return size;
}

}  // namespace

std::string group_label(const results::RunSet& set, const results::Group& group) {
  return format_group_label(group.key, set.group_by.empty() ? "" : set.group_by[0]);
}

Summary summarize(const results::RunSet& set, const Options& options) {
  Summary out;
  out.set = &set;
  out.groups.reserve(set.groups.size());
  std::map<std::string, std::optional<std::uint64_t>> sizes;
  std::map<std::string, std::optional<std::uint64_t>> line_counts;
  const bool has_syscalls = set.has_metric[index(metric_of(Counter::kSyscalls))];
  for (const results::Group& g : set.groups) {
    GroupStats gs;
    gs.group = &g;
    for (std::size_t m = 0; m < results::kMetricCount; ++m) {
      gs.metrics[m] = stats::summarize(g.samples[m]);
    }
    const stats::SampleStats& el = gs.metric(Metric::kElapsed);
    const std::size_t sink_key = set.key_index("sink");
    gs.verified_through_pipe_run = sink_key != std::string_view::npos &&
                                   (g.key[sink_key] == "null" || g.key[sink_key] == "inherit");
    if (!g.mixed_inputs) gs.input_bytes = input_size(g.input, sizes);
    if (has_syscalls && gs.input_bytes) {
      const auto [it, inserted] = line_counts.try_emplace(g.input);
      if (inserted) it->second = count_lines(g.input);
      gs.input_lines = it->second;
    }
    gs.counter_figures = derive_counter_figures(gs.metric(metric_of(Counter::kSyscalls)).median,
                                                gs.metric(metric_of(Counter::kInstructions)).median,
                                                gs.metric(metric_of(Counter::kCycles)).median,
                                                gs.input_bytes, gs.input_lines);
    gs.elapsed_ci95 = stats::median_interval_95(g.metric(Metric::kElapsed));
    if (gs.input_bytes && el.n > 0 && el.median > 0) {
      gs.mb_per_s = static_cast<double>(*gs.input_bytes) / 1e6 / el.median;
    }
    if (el.n > 0) {
      const double scale = el.mad > 0 ? el.mad / 0.6745 : 0;
      if (scale > 0) {
        for (double x : g.metric(Metric::kElapsed)) {
          if (std::fabs(x - el.median) / scale > options.outlier_threshold) ++gs.elapsed_outliers;
        }
      } else {
        gs.elapsed_outliers =
            stats::outliers(g.metric(Metric::kElapsed), options.outlier_threshold).size();
      }
    }
    out.groups.push_back(std::move(gs));
  }

  // `relative`: within each set of groups that agree on every column but `test`.
  const std::size_t test_key = set.key_index("test");
  std::map<std::vector<std::string>, std::vector<std::size_t>> peers;
  for (std::size_t i = 0; i < set.groups.size(); ++i) {
    std::vector<std::string> peer_key;
    for (std::size_t k = 0; k < set.group_by.size(); ++k) {
      if (k != test_key) peer_key.push_back(set.groups[i].key[k]);
    }
    peers[peer_key].push_back(i);
  }
  if (!options.baseline.empty() && test_key == std::string_view::npos) {
    out.warnings.push_back(
        fmt::format("--baseline {}: the groups have no test column; relative is to the fastest",
                    options.baseline));
  }
  for (const auto& [peer_key, members] : peers) {
    double reference = 0;
    bool have_reference = false;
    std::size_t reference_index = 0;
    if (!options.baseline.empty() && test_key != std::string_view::npos) {
      for (std::size_t i : members) {
        const auto& gs = out.groups[i];
        if (set.groups[i].key[test_key] == options.baseline &&
            gs.metric(options.relative_metric).n > 0) {
          reference = gs.metric(options.relative_metric).median;
          have_reference = true;
          reference_index = i;
        }
      }
      if (!have_reference) {
        out.warnings.push_back(fmt::format(
            "baseline '{}' has no successful run{}; relative is to the fastest there",
            options.baseline,
            peer_key.empty() ? std::string() : fmt::format(" for {}", fmt::join(peer_key, ", "))));
      }
    }
    if (!have_reference) {
      for (std::size_t i : members) {
        const auto& el = out.groups[i].metric(options.relative_metric);
        if (el.n > 0 && el.median > 0 && (!have_reference || el.median < reference)) {
          reference = el.median;
          have_reference = true;
          reference_index = i;
        }
      }
    }
    if (!have_reference || !(reference > 0)) continue;
    out.groups[reference_index].is_reference = true;
    for (std::size_t i : members) {
      const auto& el = out.groups[i].metric(options.relative_metric);
      if (el.n > 0 && el.median > 0) out.groups[i].relative = el.median / reference;
    }
  }

  // Warnings, group by group.
  std::vector<std::string> few_runs;
  std::vector<std::string> high_spread;
  std::vector<std::string> with_outliers;
  for (const GroupStats& gs : out.groups) {
    const results::Group& g = *gs.group;
    const std::string label = group_label(set, g);
    const std::size_t excluded = g.excluded_count();
    if (excluded > 0) {
      std::vector<std::string> parts;
      for (std::size_t s = 1; s < results::kStatusCount; ++s) {
        if (g.rows[s] > 0)
          parts.push_back(fmt::format("{} {}", g.rows[s], iobench::kStatusWords[s]));
      }
      out.warnings.push_back(fmt::format("{}: {} of {} runs excluded from the statistics ({})",
                                         label, excluded, excluded + g.ok_count(),
                                         fmt::join(parts, ", ")));
    }
    const auto& el = gs.metric(Metric::kElapsed);
    if (el.n == 0) {
      out.warnings.push_back(fmt::format("{}: no successful run, nothing to summarize", label));
      continue;
    }
    // These three are common on a busy machine: gathered into one line each below, so a matrix
    // of many tests gives a few readable warnings, not a wall of them.
    if (el.n < options.min_runs) few_runs.push_back(fmt::format("{} (n={})", label, el.n));
    if (el.median > 0 && el.mad / el.median > options.spread_warning) {
      high_spread.push_back(fmt::format("{} ({:.1f}% of {})", label, el.mad / el.median * 100,
                                        format_seconds(el.median)));
    }
    if (gs.elapsed_outliers > 0) {
      with_outliers.push_back(fmt::format("{} ({} of {})", label, gs.elapsed_outliers, el.n));
    }
    if (g.cache.off > 0) {
      const bool cold = g.cache.mode == "cold";
      out.warnings.push_back(fmt::format(
          "{}: cache {}, but {} of {} runs started with {} of the input in the page cache (as "
          "much as {:.1f}%; a {} run needs {} {:.0f}%): their times are not {}-cache times (an "
          "input on tmpfs, or eviction not allowed without root?)",
          label, g.cache.mode, g.cache.off, g.cache.checked, cold ? "more" : "less",
          g.cache.worst_pct, g.cache.mode, cold ? "at most" : "at least",
          cold ? kColdMaxCachePct : kWarmMinCachePct, g.cache.mode));
    }
    if (g.mixed_inputs) {
      out.warnings.push_back(
          fmt::format("{}: runs of several inputs in one group; no MB/s (group by input)", label));
    }
  }
  if (!few_runs.empty()) {
    out.warnings.push_back(fmt::format(
        "fewer than {} runs in {} group{}, so their medians are not reliable; use more repeats: {}",
        options.min_runs, few_runs.size(), few_runs.size() == 1 ? "" : "s",
        fmt::join(few_runs, ", ")));
  }
  if (!high_spread.empty()) {
    out.warnings.push_back(
        fmt::format("elapsed varies by more than {:.0f}% (MAD / median) in {} group{}; rerun on a "
                    "quiet machine "
                    "or with more repeats: {}",
                    options.spread_warning * 100, high_spread.size(),
                    high_spread.size() == 1 ? "" : "s", fmt::join(high_spread, ", ")));
  }
  if (!with_outliers.empty()) {
    out.warnings.push_back(fmt::format(
        "outliers in elapsed (modified z-score over {}; kept in the statistics, but something "
        "disturbed them) in {} group{}: {}",
        options.outlier_threshold, with_outliers.size(), with_outliers.size() == 1 ? "" : "s",
        fmt::join(with_outliers, ", ")));
  }
  return out;
}

}  // namespace iobench::summary
