#include "driver/report/summary.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <regex>
#include <string_view>
#include <system_error>

#include "common/line_count.hpp"
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

// The --filter of a file's run that the baseline's name does not match (plan.cpp's regex_search),
// so the run left it out; "" when no file's filter did.
std::string filter_leaving_out(const runfile::RunSet& set, const std::string& baseline) {
  for (const std::string& filter : set.filters) {
    if (filter.empty()) continue;
    try {
      if (!std::regex_search(baseline, std::regex(filter, std::regex::ECMAScript))) return filter;
    } catch (const std::regex_error&) {
      // Not one a run took: it refuses such a filter before it starts.
    }
  }
  return "";
}

// Says once, for all peers, that a --filter left the baseline out of every run (it was said
// "has no successful run", then "has no runs here (left out by --filter?)" for each input and
// sink). False when the baseline has runs or no file's filter explains why it has none.
bool said_baseline_left_out(const runfile::RunSet& set, const SummaryOptions& options,
                            Summary& out) {
  const std::size_t test_key = set.key_index("test");
  if (options.baseline.empty() || test_key == std::string_view::npos) return false;
  const bool has_runs = std::any_of(set.groups.begin(), set.groups.end(), [&](const auto& g) {
    return g.key[test_key] == options.baseline;
  });
  if (has_runs) return false;
  const std::string filter = filter_leaving_out(set, options.baseline);
  if (filter.empty()) return false;
  out.warnings.push_back(
      fmt::format("baseline '{}' was left out by --filter '{}'; relative is to the fastest",
                  options.baseline, filter));
  return true;
}

// The group `relative` divides by among peers: the baseline test's when it has a successful run,
// else the fastest (by SummaryOptions::relative_metric). `left_out`: the baseline's absence was
// said already.
std::optional<std::size_t> reference_of(const runfile::RunSet& set, const SummaryOptions& options,
                                        const std::vector<std::string>& peer_key,
                                        const std::vector<std::size_t>& members, bool left_out,
                                        Summary& out) {
  const std::size_t test_key = set.key_index("test");
  if (!options.baseline.empty() && test_key != std::string_view::npos && !left_out) {
    std::optional<std::size_t> baseline;
    bool baseline_ran = false;
    for (std::size_t i : members) {
      if (set.groups[i].key[test_key] != options.baseline) continue;
      baseline_ran = true;
      if (out.groups[i].metric(options.relative_metric).n > 0) baseline = i;
    }
    if (baseline) return baseline;
    std::vector<std::string> named;  // an input-less run's empty input is no name
    std::copy_if(peer_key.begin(), peer_key.end(), std::back_inserter(named),
                 [](const std::string& value) { return !value.empty(); });
    // Not run at all (a --filter or --shard left it out) is no failure of the baseline's.
    out.warnings.push_back(fmt::format(
        "baseline '{}' {}{}; relative is to the fastest there", options.baseline,
        baseline_ran ? "has no successful run" : "has no runs here (left out by --filter?)",
        named.empty() ? std::string() : fmt::format(" for {}", fmt::join(named, ", "))));
  }
  std::optional<std::size_t> fastest;
  for (std::size_t i : members) {
    const auto& m = out.groups[i].metric(options.relative_metric);
    if (m.n > 0 && m.median > 0 &&
        (!fastest || m.median < out.groups[*fastest].metric(options.relative_metric).median)) {
      fastest = i;
    }
  }
  return fastest;
}

// `relative`: within each set of groups that agree on every column but `test`.
void set_relative(const runfile::RunSet& set, const SummaryOptions& options, Summary& out) {
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
  const bool left_out = said_baseline_left_out(set, options, out);
  for (const auto& [peer_key, members] : peers) {
    const std::optional<std::size_t> reference =
        reference_of(set, options, peer_key, members, left_out, out);
    if (!reference) continue;
    const double reference_median = out.groups[*reference].metric(options.relative_metric).median;
    if (!(reference_median > 0)) continue;
    out.groups[*reference].is_reference = true;
    for (std::size_t i : members) {
      const auto& m = out.groups[i].metric(options.relative_metric);
      if (m.n > 0 && m.median > 0) out.groups[i].relative = m.median / reference_median;
    }
  }
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
  set_relative(set, options, out);
  add_warnings(set, options, out);
  out.shows_waited_cpu = std::any_of(out.groups.begin(), out.groups.end(), [&](const auto& gs) {
    return gs.group->rows[static_cast<std::size_t>(runfile::RunStatus::kDisturbed)] > 0 ||
           gs.waited_cpus.value_or(0) > options.waited_cpus_shown;
  });
  return out;
}

}  // namespace iobench::report
