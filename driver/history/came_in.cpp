#include "driver/history/came_in.hpp"

#include <vector>

#include "driver/stats/descriptive.hpp"

namespace iobench::history {

const RunPoint* first_point_of_new_level(const Timeline& timeline, double base_median_s,
                                         double new_median_s) {
  if (timeline.points.empty()) return nullptr;
  const double midpoint_s = (base_median_s + new_median_s) / 2;
  const bool slower = new_median_s > base_median_s;
  const RunPoint* first = &timeline.points.back();
  for (auto it = timeline.points.rbegin() + 1; it != timeline.points.rend(); ++it) {
    const std::vector<double> elapsed_s = usable_elapsed(*it, *timeline.series);
    if (elapsed_s.empty()) continue;
    const double median_s = stats::median(elapsed_s);
    if (slower ? median_s <= midpoint_s : median_s >= midpoint_s) break;
    first = &*it;
  }
  return first;
}

}  // namespace iobench::history
