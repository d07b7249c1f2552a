#pragma once
// Where a change that check found in the newest run came in (docs/history.md, "Check"): a level
// that moved shows in the runs before the newest too when it came in a commit earlier, and the
// site, the feed and an ack should name that run, not whichever run happens to be the newest.
#include <cstddef>

#include "driver/history/timeline.hpp"

namespace iobench::history {

// The index in timeline.points of the earliest point of the run of points at its end, from
// `first_allowed` on, whose medians lie on the new level's side of the midpoint between
// `base_median_s` and `new_median_s` (points with no row that counts are passed over); the
// newest point's when only it does. The timeline must not be empty.
std::size_t first_index_of_new_level(const Timeline& timeline, std::size_t first_allowed,
                                     double base_median_s, double new_median_s);

}  // namespace iobench::history
