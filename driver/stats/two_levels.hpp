#pragma once
// Whether one cell's ok runs, in the order they ran, fell into two levels (docs/reports.md,
// "Two levels"): a quiet run's first five at 38-44 ms and the rest at 54-59 ms, say. Pure
// arithmetic over a series; run and bench word the warning (two_levels_warnings.hpp).
//
// The rule, exactly. The split is the one of the n runs into a first segment [0, k) and a second
// [k, n), each of at least min_runs_per_level runs, whose runs deviate least in absolute value
// from their segment's median. Its segments, each less its strays (kStrayZ), get the two-sample t
// statistic with the pooled standard deviation, |mean_1 - mean_2| / (s_p sqrt(1/k + 1/(n - k))):
// the gap between the levels against the spread within each. It is accepted when that t is at
// least min_t and the segments' medians differ by at least min_step of the lower one. min_t is
// well above a single t test's quantile, since the split is the best of up to n - 5: 6 holds the
// false alarms of one-level series under 1 % for bimodal noise at 10 and 20 runs
// (tests/unit/stats/two_levels_gtest.cc simulates it). min_step is the 2 % a precision target
// aims at (ci_pct): a smaller step is below what the figures claim to resolve.
#include <cstddef>
#include <optional>
#include <span>

namespace iobench::stats {

struct TwoLevelsOptions {
  std::size_t min_runs_per_level = 3;
  double min_t = 6;
  double min_step = 0.02;  // of the lower level's median
};

struct TwoLevels {
  std::size_t split = 0;  // the second level's first run
  double t = 0;           // the split's t statistic
};

// The t statistic of series[0, split) against series[split, n) with the pooled standard
// deviation: 0 when both segments are constant and equal, infinite when they are constant and
// differ. Needs at least one run a side and three in all.
double split_t(std::span<const double> series, std::size_t split);

// A run this far from its level's median (a modified z-score, stats::outliers) is a stray: one
// slow run among fast ones, which would hide two levels by widening the spread within one.
inline constexpr double kStrayZ = 10;

// The split into two segments of at least min_runs runs whose runs deviate least, in absolute
// value, from their segment's median (the least-absolute-deviations fit of two levels, which a
// stray does not pull the way it pulls the least-squares one); 0 when there is none.
std::size_t median_split(std::span<const double> series, std::size_t min_runs);

// split_t over the runs of each segment that are not strays; 0 when either keeps fewer than
// min_runs.
double split_t_without_strays(std::span<const double> series, std::size_t split,
                              std::size_t min_runs);

// The median split, accepted by its t without strays and its step (TwoLevelsOptions), or
// nullopt (also for a series too short for two levels).
std::optional<TwoLevels> find_two_levels(std::span<const double> series,
                                         const TwoLevelsOptions& options = {});

}  // namespace iobench::stats
