#include "driver/history/came_in.hpp"

#include <vector>

#include "driver/stats/descriptive.hpp"

namespace iobench::history {

std::size_t first_index_of_new_level(const Timeline& timeline, std::size_t first_allowed,
                                     double base_median_s, double new_median_s) {
  const double midpoint_s = (base_median_s + new_median_s) / 2;
  const bool slower = new_median_s > base_median_s;
  std::size_t first = timeline.points.size() - 1;
  for (std::size_t i = first; i-- > first_allowed;) {
    const std::vector<double> elapsed_s = usable_elapsed(timeline.points[i], *timeline.series);
    if (elapsed_s.empty()) continue;
    const double median_s = stats::median(elapsed_s);
    if (slower ? !(median_s > midpoint_s) : !(median_s < midpoint_s)) break;
    first = i;
  }
  return first;
}

}  // namespace iobench::history
