#pragma once
// The why beside a change (docs/history.md, "The why"): which of the other figures of the rows
// (user and system time, faults, context switches, block I/O, max RSS, each counter) moved with
// elapsed, and what that points at.
#include <string>
#include <vector>

#include "driver/history/timeline.hpp"

namespace iobench::history {

// A figure moved when its medians differ by kMovedRatio or more and the U test calls the
// difference significant at `alpha`; user or system time moved only when its change is also at
// least kShareOfElapsed of elapsed's (CPU time is counted in clock ticks: a millisecond's jitter
// of a 100 ms run is no explanation of it).
inline constexpr double kMovedRatio = 0.10;
inline constexpr double kShareOfElapsed = 0.25;

struct Movement {
  std::string figure;  // "syscalls", "user"
  double base_median = 0;
  double new_median = 0;
};

struct Explanation {
  std::vector<Movement> moved;  // in the order of the rows' columns
  std::string reading;          // "the work changed" or "...the machine, most likely"
};

// Compares the rows that count of `before` with those of `after`.
Explanation explain_change(const std::vector<const StoredSample*>& before,
                           const std::vector<const StoredSample*>& after, double alpha = 0.05);

// "why: syscalls 120 -> 40000 (×333), system 1.20 ms -> 9.80 ms (×8.17): the work changed".
std::string format_explanation(const Explanation& explanation);

// The rows of `points` that count (timeline.hpp, counts).
std::vector<const StoredSample*> counted_rows(const std::vector<const RunPoint*>& points,
                                              const StoredSeries& series);

}  // namespace iobench::history
