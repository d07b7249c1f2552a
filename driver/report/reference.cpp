#include "driver/report/reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <string_view>

#include "driver/runfile/base_twin.hpp"

namespace iobench::report {
namespace {

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

// Under `run --versus`, each member NAME with a twin NAME@base that has a successful run: the
// twin is its reference.
void refer_to_base_twins(const runfile::RunSet& set, const SummaryOptions& options,
                         const std::vector<std::size_t>& members, Summary& out) {
  const std::size_t test_key = set.key_index("test");
  if (test_key == std::string_view::npos) return;
  for (std::size_t twin : members) {
    const std::optional<std::string> candidate =
        runfile::candidate_of_base_twin(set.groups[twin].key[test_key]);
    if (!candidate || !(out.groups[twin].metric(options.relative_metric).median > 0)) continue;
    for (std::size_t i : members) {
      if (set.groups[i].key[test_key] != *candidate) continue;
      out.groups[i].reference = twin;
      out.groups[i].reference_rule = ReferenceRule::kBaseTwin;
    }
  }
}

}  // namespace

std::vector<Peers> peer_sets(const runfile::RunSet& set) {
  const std::size_t test_key = set.key_index("test");
  std::vector<Peers> peers;
  std::map<std::vector<std::string>, std::size_t> index;
  for (std::size_t i = 0; i < set.groups.size(); ++i) {
    std::vector<std::string> key;
    for (std::size_t k = 0; k < set.group_by.size(); ++k) {
      if (k != test_key) key.push_back(set.groups[i].key[k]);
    }
    const auto [it, inserted] = index.try_emplace(key, peers.size());
    if (inserted) peers.push_back({std::move(key), {}});
    peers[it->second].members.push_back(i);
  }
  return peers;
}

std::string configs_baseline(const runfile::RunSet& set, std::vector<std::string>& warnings) {
  std::vector<std::string> named;
  for (const std::string& baseline : set.baselines) {
    if (!baseline.empty() && std::find(named.begin(), named.end(), baseline) == named.end())
      named.push_back(baseline);
  }
  if (named.size() > 1) {
    warnings.push_back(fmt::format(
        "the run files' configs name different baselines ({}); relative is to the fastest "
        "(--baseline names one)",
        fmt::join(named, ", ")));
    return "";
  }
  return named.empty() ? "" : named.front();
}

void set_relative(const runfile::RunSet& set, const SummaryOptions& options, Summary& out) {
  const std::size_t test_key = set.key_index("test");
  if (!options.baseline.empty() && test_key == std::string_view::npos) {
    out.warnings.push_back(
        fmt::format("--baseline {}: the groups have no test column; relative is to the fastest",
                    options.baseline));
  }
  const bool left_out = said_baseline_left_out(set, options, out);
  for (const Peers& peers : peer_sets(set)) {
    const std::optional<std::size_t> reference =
        reference_of(set, options, peers.key, peers.members, left_out, out);
    const bool baseline = reference && test_key != std::string_view::npos &&
                          set.groups[*reference].key[test_key] == options.baseline;
    for (std::size_t i : peers.members) {
      out.groups[i].reference = reference;
      out.groups[i].reference_rule = baseline ? ReferenceRule::kBaseline : ReferenceRule::kFastest;
    }
    refer_to_base_twins(set, options, peers.members, out);
    for (std::size_t i : peers.members) {
      GroupStats& g = out.groups[i];
      if (!g.reference) continue;
      const double reference_median =
          out.groups[*g.reference].metric(options.relative_metric).median;
      if (!(reference_median > 0)) continue;
      out.groups[*g.reference].is_reference = true;
      const auto& m = g.metric(options.relative_metric);
      if (m.n > 0 && m.median > 0) g.relative = m.median / reference_median;
    }
  }
}

}  // namespace iobench::report
