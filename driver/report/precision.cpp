#include "driver/report/precision.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "driver/report/stats.hpp"

namespace iobench::report {

double student_t_975(std::size_t degrees_of_freedom) {
  static constexpr std::array<double, 30> kTable{
      12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
      2.364624252,  2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
      2.160368656,  2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
      2.093024054,  2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
      2.059538553,  2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456};
  if (degrees_of_freedom == 0) return std::numeric_limits<double>::infinity();
  if (degrees_of_freedom <= kTable.size()) return kTable[degrees_of_freedom - 1];
  // Cornish-Fisher expansion of t around the normal quantile (Abramowitz & Stegun 26.7.5).
  const double z = 1.959963984540054;
  const double v = static_cast<double>(degrees_of_freedom);
  const double z3 = z * z * z;
  const double z5 = z3 * z * z;
  const double z7 = z5 * z * z;
  const double z9 = z7 * z * z;
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v) +
         (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v);
}

MedianInterval median_interval_95(std::span<const double> values) {
  MedianInterval interval;
  interval.median = median(values);
  if (values.size() < 2) {
    interval.half_width = std::numeric_limits<double>::quiet_NaN();
    interval.half_width_pct = std::numeric_limits<double>::quiet_NaN();
    return interval;
  }
  const double n = static_cast<double>(values.size());
  interval.half_width = student_t_975(values.size() - 1) * std::sqrt(std::numbers::pi / 2) *
                        stddev(values) / std::sqrt(n);
  interval.half_width_pct = interval.median != 0
                                ? interval.half_width / std::abs(interval.median) * 100
                                : std::numeric_limits<double>::infinity();
  return interval;
}

bool precise_enough(std::span<const double> elapsed_s, const RepeatTarget& target) {
  const auto runs = static_cast<int>(elapsed_s.size());
  if (runs >= target.max_runs) return true;
  if (runs < target.min_runs || target.ci_pct <= 0) return false;
  const MedianInterval interval = median_interval_95(elapsed_s);
  return interval.half_width_pct <= target.ci_pct;  // false for NaN
}

}  // namespace iobench::report
