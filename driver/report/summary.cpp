#include "driver/report/summary.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>
#include <system_error>

#include "common/line_count.hpp"
#include "driver/report/reference.hpp"
#include "driver/util/format.hpp"

namespace iobench::report {
namespace {

using runfile::Metric;

// What summarize learns about each input path once: its size, and its lines when counted.
struct InputFacts {
  std::map<std::string, std::optional<std::uint64_t>> sizes;
  std::map<std::string, std::optional<std::uint64_t>> lines;

  std::optional<std::uint64_t> size_of(const std::string& path) {
    if (path.empty() || path == "-") return std::nullopt;
    const auto [it, inserted] = sizes.try_emplace(path);
    struct stat st {};
    if (inserted && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      it->second = static_cast<std::uint64_t>(st.st_size);
    }
    return it->second;
  }
  std::optional<std::uint64_t> lines_of(const std::string& path) {
    const auto [it, inserted] = lines.try_emplace(path);
    if (inserted) {
      try {
        it->second = count_lines(path);
      } catch (const std::system_error&) {
        // Unreadable: the per-line figures stay empty.
      }
    }
    return it->second;
  }
};

GroupStats group_stats(const runfile::RunSet& set, const runfile::Group& g,
                       const SummaryOptions& options, InputFacts& inputs) {
  GroupStats gs;
  gs.group = &g;
  for (std::size_t m = 0; m < runfile::kMetricCount; ++m) {
    gs.metrics[m] = stats::summarize(g.samples[m]);
  }
  const stats::SampleStats& el = gs.metric(Metric::kElapsed);
  const std::size_t sink_key = set.key_index("sink");
  gs.verified_through_pipe_run = sink_key != std::string_view::npos &&
                                 (g.key[sink_key] == "null" || g.key[sink_key] == "inherit");
  if (!g.mixed_inputs) gs.input_bytes = inputs.size_of(g.input);
  if (set.has_metric[index(metric_of(runfile::Counter::kSyscalls))] && gs.input_bytes) {
    gs.input_lines = inputs.lines_of(g.input);
  }
  gs.counter_figures = derive_counter_figures(
      gs.metric(metric_of(runfile::Counter::kSyscalls)).median,
      gs.metric(metric_of(runfile::Counter::kInstructions)).median,
      gs.metric(metric_of(runfile::Counter::kCycles)).median, gs.input_bytes, gs.input_lines);
  gs.elapsed_ci95 = stats::median_interval_95(g.metric(Metric::kElapsed));
  if (gs.input_bytes && el.n > 0 && el.median > 0) {
    gs.mb_per_s = static_cast<double>(*gs.input_bytes) / 1e6 / el.median;
  }
  gs.others_cpu_s_median = stats::median(g.others_cpu_s);
  gs.steal_s_median = stats::median(g.steal_s);
  if (!std::isnan(gs.others_cpu_s_median) && el.n > 0 && el.median > 0) {
    const double steal = std::isnan(gs.steal_s_median) ? 0 : gs.steal_s_median;
    gs.others_cpus = (gs.others_cpu_s_median + steal) / el.median;
  }
  gs.wait_cpu_s_median = stats::median(g.wait_cpu_s);
  if (!std::isnan(gs.wait_cpu_s_median) && el.n > 0 && el.median > 0)
    gs.waited_cpus = gs.wait_cpu_s_median / el.median;
  if (el.n > 0) {
    gs.elapsed_outliers = stats::count_outliers(g.metric(Metric::kElapsed), el.median, el.mad,
                                                options.outlier_threshold);
  }
  return gs;
}

// Common on a busy machine, so gathered into one line each: a matrix of many tests gives a few
// readable warnings, not a wall of them.
struct GatheredWarnings {
  std::vector<std::string> few_runs;
  std::vector<std::string> high_spread;
  std::vector<std::string> with_outliers;
};

// The warnings about one group that are its own line; the others into `gathered`.
void warn_about_group(const runfile::RunSet& set, const GroupStats& gs,
                      const SummaryOptions& options, GatheredWarnings& gathered,
                      std::vector<std::string>& warnings) {
  const runfile::Group& g = *gs.group;
  const std::string label = group_label(set, g);
  if (g.from_disturbed_runs) {
    warnings.push_back(fmt::format(
        "{}: every one of its {} runs was disturbed (kept waiting for a CPU, or slowed by a burst "
        "of others): its figures are "
        "theirs, marked (disturbed), not a quiet machine's (docs/driver.md, \"Disturbance\")",
        label, g.ok_count()));
  } else if (const std::size_t excluded = g.excluded_count(); excluded > 0) {
    std::vector<std::string> parts;
    for (std::size_t s = 1; s < runfile::kStatusCount; ++s) {
      if (g.rows[s] > 0) parts.push_back(fmt::format("{} {}", g.rows[s], runfile::kStatusWords[s]));
    }
    warnings.push_back(fmt::format("{}: {} of {} runs excluded from the statistics ({})", label,
                                   excluded, excluded + g.ok_runs(), fmt::join(parts, ", ")));
  }
  const auto& el = gs.metric(Metric::kElapsed);
  if (el.n == 0) {
    warnings.push_back(fmt::format("{}: no successful run, nothing to summarize", label));
    return;
  }
  if (el.n < options.min_runs) gathered.few_runs.push_back(fmt::format("{} (n={})", label, el.n));
  if (el.median > 0 && el.mad / el.median > options.spread_warning) {
    gathered.high_spread.push_back(fmt::format(
        "{} ({:.1f}% of {})", label, el.mad / el.median * 100, util::format_seconds(el.median)));
  }
  if (gs.elapsed_outliers > 0) {
    gathered.with_outliers.push_back(
        fmt::format("{} ({} of {})", label, gs.elapsed_outliers, el.n));
  }
  if (g.cache.off > 0) warnings.push_back(cache_state_warning(label, g.cache));
  if (g.mixed_inputs) {
    warnings.push_back(
        fmt::format("{}: runs of several inputs in one group; no MB/s (group by input)", label));
  }
}

// One gathered warning: `lead` then the groups, all of them in warnings_in_full and at most
// SummaryOptions::groups_named in warnings, with the count of the rest and where they all are.
void add_gathered(const std::string& lead, const std::vector<std::string>& groups,
                  const SummaryOptions& options, Summary& out) {
  if (groups.empty()) return;
  const std::string all = fmt::format("{}", fmt::join(groups, ", "));
  out.warnings_in_full.push_back(lead + all);
  if (options.groups_named == 0 || groups.size() <= options.groups_named) {
    out.warnings.push_back(lead + all);
    return;
  }
  const auto named = groups.begin() + static_cast<std::ptrdiff_t>(options.groups_named);
  out.warnings.push_back(
      fmt::format("{}{} … and {} more{}", lead, fmt::join(groups.begin(), named, ", "),
                  util::with_thousands(groups.size() - options.groups_named),
                  options.all_groups_in.empty() ? "" : "; all in " + options.all_groups_in));
}

void add_warnings(const runfile::RunSet& set, const SummaryOptions& options, Summary& out) {
  GatheredWarnings gathered;
  for (const GroupStats& gs : out.groups) {
    warn_about_group(set, gs, options, gathered, out.warnings);
  }
  out.warnings_in_full = out.warnings;
  const auto groups_text = [](const std::vector<std::string>& groups) {
    return fmt::format("{} group{}", util::with_thousands(groups.size()),
                       groups.size() == 1 ? "" : "s");
  };
  add_gathered(fmt::format("fewer than {} runs in {}, so their medians are not reliable; use "
                           "more repeats: ",
                           options.min_runs, groups_text(gathered.few_runs)),
               gathered.few_runs, options, out);
  add_gathered(fmt::format("elapsed varies by more than {:.0f}% (MAD / median) in {}; rerun on a "
                           "quiet machine or with more repeats: ",
                           options.spread_warning * 100, groups_text(gathered.high_spread)),
               gathered.high_spread, options, out);
  add_gathered(fmt::format("outliers in elapsed (modified z-score over {}; kept in the "
                           "statistics, but something disturbed them) in {}: ",
                           options.outlier_threshold, groups_text(gathered.with_outliers)),
               gathered.with_outliers, options, out);
}

}  // namespace

std::string group_label(const runfile::RunSet& set, const runfile::Group& group) {
  return util::format_group_label(group.key, set.group_by.empty() ? "" : set.group_by[0]);
}

std::vector<std::string> group_marks(const runfile::Group& group) {
  std::vector<std::string> marks;
  if (group.unverified) marks.emplace_back("unverified");
  const std::size_t disturbed =
      group.rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)];
  if (group.from_disturbed_runs) {
    marks.emplace_back("disturbed");
  } else if (disturbed > 0) {
    marks.push_back(fmt::format("{} disturbed", disturbed));
  }
  return marks;
}

std::string marked_test(const std::string& test, const runfile::Group& group) {
  const std::vector<std::string> marks = group_marks(group);
  return marks.empty() ? test : fmt::format("{} ({})", test, fmt::join(marks, ", "));
}

std::vector<std::string> mark_notes(const std::vector<const runfile::Group*>& groups) {
  const auto any = [&](auto pred) { return std::any_of(groups.begin(), groups.end(), pred); };
  std::vector<std::string> notes;
  if (any([](const runfile::Group* g) { return g->unverified; })) {
    notes.emplace_back(
        "(unverified): its strategy says \"verify\": false, so its output was never checked "
        "against the reference; its times may be of a run that did other work");
  }
  if (any([](const runfile::Group* g) { return g->from_disturbed_runs; })) {
    notes.emplace_back(
        "(disturbed): every run of it was kept waiting for a CPU or slowed by a burst of others; "
        "its figures are those runs', not a quiet machine's (docs/driver.md, \"Disturbance\")");
  }
  if (any([](const runfile::Group* g) {
        return !g->from_disturbed_runs &&
               g->rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] > 0;
      })) {
    notes.emplace_back(
        "(N disturbed): N of its runs were disturbed and left out of its figures (run again where "
        "the disturbance rule is rerun; docs/driver.md, \"Disturbance\")");
  }
  return notes;
}

std::string split_note(const runfile::RunSet& set, bool has_group_by_option) {
  return split_note(std::vector<const runfile::RunSet*>{&set}, has_group_by_option);
}

std::string split_note(const std::vector<const runfile::RunSet*>& sets, bool has_group_by_option) {
  const runfile::RunSet& set = *sets.front();
  std::vector<std::string> parts;
  for (const std::string& key : set.split_by) {
    const std::size_t k = set.key_index(key);
    std::vector<std::string> values;
    for (const runfile::RunSet* one : sets) {
      for (const runfile::Group& g : one->groups) {
        const std::string value = k < g.key.size() && !g.key[k].empty() ? g.key[k] : "unknown";
        if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
      }
    }
    parts.push_back(fmt::format("{} ({})", key, fmt::join(values, ", ")));
  }
  if (parts.empty()) return "";
  std::string note = fmt::format("not pooled: the run files differ in {}; each group names its own",
                                 fmt::join(parts, " and "));
  if (has_group_by_option) {
    note += fmt::format(" (--group-by without {} pools them)",
                        set.split_by.size() == 1 ? set.split_by[0] : "them");
  }
  return note;
}

std::string cache_state_warning(const std::string& label, const runfile::CacheCheck& check) {
  const bool cold = check.mode == "cold";
  return fmt::format(
      "{}: cache {}, but {} of {} runs started with {} of the input in the page cache (as much "
      "as {:.1f}%; a {} run needs {} {:.0f}%): their times are not {}-cache times (an input on "
      "tmpfs, or eviction not allowed without root?)",
      label, check.mode, check.off, check.checked, cold ? "more" : "less", check.worst_pct,
      check.mode, cold ? "at most" : "at least",
      cold ? runfile::kColdMaxCachePct : runfile::kWarmMinCachePct, check.mode);
}

Summary summarize(const runfile::RunSet& set, const SummaryOptions& options) {
  Summary out;
  out.set = &set;
  out.groups.reserve(set.groups.size());
  InputFacts inputs;
  for (const runfile::Group& g : set.groups) {
    out.groups.push_back(group_stats(set, g, options, inputs));
  }
  SummaryOptions resolved = options;
  if (resolved.baseline.empty()) {
    resolved.baseline = configs_baseline(set, out.warnings);
    resolved.baseline_named_by = "the config's baseline";
  }
  out.baseline = resolved.baseline;
  out.baseline_named_by = resolved.baseline.empty() ? "" : resolved.baseline_named_by;
  set_relative(set, resolved, out);
  add_warnings(set, options, out);
  out.shows_waited_cpu = std::any_of(out.groups.begin(), out.groups.end(), [&](const auto& gs) {
    return gs.group->rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] > 0 ||
           gs.waited_cpus.value_or(0) > options.waited_cpus_shown;
  });
  return out;
}

}  // namespace iobench::report
