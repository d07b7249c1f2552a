#pragma once
// The precision target of `"repeats": {"min": 3, "max": 10, "ci_pct": 2}` (docs/formats.md,
// docs/reports.md): a cell stops repeating once the 95 % confidence interval of its median
// elapsed time lies within ci_pct % of the median, or at max runs.
//
// The interval is median ± t(0.975, n-1) · sqrt(pi/2) · s / sqrt(n): the large-sample standard
// error of a sample median under normal noise (sqrt(pi/2) = 1.2533 times the mean's), with
// Student's t for small n. It needs no minimum n (a distribution-free interval of order
// statistics reaches 95 % only from 6 runs, which would save nothing on slow cells), and it errs
// towards more runs: one outlier inflates s, so a noisy cell simply runs to max.
#include <cstddef>
#include <span>

namespace iobench::report {

// Student's t quantile for a two-sided 95 % interval with `degrees_of_freedom` >= 1: the exact
// table up to 30, the Cornish-Fisher expansion beyond (error below 1e-8).
double student_t_975(std::size_t degrees_of_freedom);

struct MedianInterval {
  double median = 0;
  double half_width = 0;      // the interval is median ± half_width
  double half_width_pct = 0;  // half_width / median * 100 (infinite when the median is 0)
};
// NaN half-widths for fewer than 2 values.
MedianInterval median_interval_95(std::span<const double> values);

struct RepeatTarget {
  int min_runs = 5;
  int max_runs = 5;
  double ci_pct = 0;  // 0: always max_runs (a plain "repeats": N)
};

// True when a cell with these measured values needs no further run: max reached, or at least
// min runs and the interval within ci_pct.
bool precise_enough(std::span<const double> elapsed_s, const RepeatTarget& target);

}  // namespace iobench::report
