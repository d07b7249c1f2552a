#include "driver/stats/median_interval.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/distributions.hpp"

namespace iobench::stats {

MedianInterval median_interval_95(std::span<const double> values) {
  MedianInterval interval;
  interval.median = median(values);
  if (values.size() < 2) {
    interval.half_width = std::numeric_limits<double>::quiet_NaN();
    interval.half_width_pct = std::numeric_limits<double>::quiet_NaN();
    return interval;
  }
  const double n = static_cast<double>(values.size());
  interval.half_width = student_t_quantile(0.975, n - 1) * std::sqrt(std::numbers::pi / 2) *
                        stddev(values) / std::sqrt(n);
  interval.half_width_pct = interval.median != 0
                                ? interval.half_width / std::abs(interval.median) * 100
                                : std::numeric_limits<double>::infinity();
  return interval;
}

}  // namespace iobench::stats
