#pragma once
// Like with like in `history check` (docs/history.md, "Like with like"): what a run's rows were
// measured under, as far as the harness verified it, and what moved between two runs. Shared by
// check.cpp only.
#include <limits>
#include <optional>
#include <string>

#include "driver/history/timeline.hpp"

namespace iobench::history {

struct Conditions {
  bool cache_held = true;  // every counted row's cache_pct within its mode's bound
  double worst_cache_pct = std::numeric_limits<double>::quiet_NaN();
  bool busy = false;
  std::optional<double> busy_cpus;
  std::string kernel;
  std::string harness;  // an import's like-with-like conditions (a debug build, CPU scaling on)
};

Conditions conditions_of(const RunPoint& point, const StoredSeries& series);
bool same_conditions(const Conditions& a, const Conditions& b);
// "cache no longer warm (cache_pct 41.0), another kernel (...)": what differs, for a cell whose
// baseline shares none of its conditions.
std::string what_moved(const Conditions& now, const Conditions& before,
                       const std::string& cache_mode);

}  // namespace iobench::history
