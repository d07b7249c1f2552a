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

// A figure moved only when its medians differ by more than its resolution (docs/history.md, "The
// why": a longer sleep's "system 0 us -> 1.23 ms" is no change of the work). user and system come
// from rusage, which the kernel charges in scheduler ticks of its CONFIG_HZ: a row's split of its
// CPU time between them is off by up to a tick. Neither the run file nor the meta file records
// CONFIG_HZ (the disturbance rule, in driver/run, has its own 4 ms for 250 Hz, which the history
// may not include), so one tick of the slowest common kernel, 100 Hz, is taken: 10 ms.
inline constexpr double kCpuTimeResolution_s = 0.010;
struct Resolution {
  double cpu_time_s = kCpuTimeResolution_s;  // user, system
  double max_rss_kib = 4;                    // a page
  double count = 1;                          // faults, switches, blocks, counters: one event
};
// The resolution of the figures of a run's rows: kCpuTimeResolution_s for CPU time until the
// store records the measuring kernel's tick (docs/history.md, "The why").
Resolution resolution_of(const StoredRun& run);
// The coarsest of both: what a difference between the runs' medians must exceed.
Resolution coarsest(const Resolution& a, const Resolution& b);

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
                           const std::vector<const StoredSample*>& after, double alpha = 0.05,
                           const Resolution& resolution = {});

// "why: syscalls 120 -> 40000 (×333), system 1.20 ms -> 9.80 ms (×8.17): the work changed".
std::string format_explanation(const Explanation& explanation);

// The rows of `points` that count (timeline.hpp, counts).
std::vector<const StoredSample*> counted_rows(const std::vector<const RunPoint*>& points,
                                              const StoredSeries& series);

}  // namespace iobench::history
