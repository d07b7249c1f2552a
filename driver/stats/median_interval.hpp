#pragma once
// The 95 % interval of a sample's median that the repeats precision target stops on
// (stats/precision.hpp; docs/reports.md): median ± t(0.975, n-1) · sqrt(pi/2) · s / sqrt(n),
// the large-sample standard error of a sample median under normal noise (sqrt(pi/2) = 1.2533
// times the mean's), with Student's t for small n. It needs no minimum n (a distribution-free
// interval of order statistics reaches 95 % only from 6 runs, which would save nothing on slow
// cells), and it errs towards more runs: one outlier inflates s, so a noisy cell runs to max.
#include <span>

namespace iobench::stats {

struct MedianInterval {
  double median = 0;
  double half_width = 0;      // the interval is median ± half_width
  double half_width_pct = 0;  // half_width / median * 100 (infinite when the median is 0)
};
// NaN half-widths for fewer than 2 values.
MedianInterval median_interval_95(std::span<const double> values);

}  // namespace iobench::stats
