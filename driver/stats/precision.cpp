#include "driver/stats/precision.hpp"

#include "driver/stats/median_interval.hpp"

namespace iobench::stats {

bool precise_enough(std::span<const double> elapsed_s, const RepeatTarget& target) {
  const auto runs = static_cast<int>(elapsed_s.size());
  if (runs >= target.max_runs) return true;
  if (runs < target.min_runs || target.ci_pct <= 0) return false;
  const stats::MedianInterval interval = stats::median_interval_95(elapsed_s);
  return interval.half_width_pct <= target.ci_pct;  // false for NaN
}

}  // namespace iobench::stats
