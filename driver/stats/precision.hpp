#pragma once
// The precision target of `"repeats": {"min": 3, "max": 10, "ci_pct": 2}` (docs/formats.md,
// docs/reports.md): a cell stops repeating once the 95 % confidence interval of its median
// elapsed time (stats/median_interval.hpp) lies within ci_pct % of the median, or at max runs.
#include <span>

namespace iobench::stats {

struct RepeatTarget {
  int min_runs = 5;
  int max_runs = 5;
  double ci_pct = 0;  // 0: always max_runs (a plain "repeats": N)
};

// True when a cell with these measured values needs no further run: max reached, or at least
// min runs and the interval within ci_pct.
bool precise_enough(std::span<const double> elapsed_s, const RepeatTarget& target);

}  // namespace iobench::stats
