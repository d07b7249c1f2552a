#pragma once
// The one reference rule of every surface (docs/reports.md, "The answer"): within each set of
// peers, the groups that agree on every group-by column but `test` (the same input, sink, cache
// state and other conditions), a test NAME with a twin NAME@base among them (`run --versus`) is
// compared with that twin, every other with the baseline when it has a successful run there, else
// with the fastest.
#include <cstddef>
#include <string>
#include <vector>

#include "driver/report/summary.hpp"
#include "driver/runfile/reader.hpp"

namespace iobench::report {

// Groups that agree on every group-by column but `test`; `key` holds those columns' values.
struct Peers {
  std::vector<std::string> key;
  std::vector<std::size_t> members;  // indices into set.groups, in the set's order
};
// In order of first appearance.
std::vector<Peers> peer_sets(const runfile::RunSet& set);

// The baseline the run files' configs name (their meta files); "" when none does. Files that name
// different ones name none: a warning says so.
std::string configs_baseline(const runfile::RunSet& set, std::vector<std::string>& warnings);

// Sets each group's `reference`, `reference_rule`, `is_reference` and `relative` (by
// options.relative_metric) by the rule above, `options.baseline` the baseline. Warns (into
// out.warnings) where the baseline cannot be the reference.
void set_relative(const runfile::RunSet& set, const SummaryOptions& options, Summary& out);

}  // namespace iobench::report
