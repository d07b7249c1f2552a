#pragma once
// The kernel event counters as the driver sees them (docs/driver.md, "Counters"): one run's
// reading of each, and the probe of which ones this machine can count. They are perf_event_open
// on the worker and every descendant (inherit), switched on at the worker's exec (enable_on_exec)
// so nothing the spawner does between fork and exec is counted (the spawner opens them:
// driver/spawn/counter_events.hpp). A counter the machine cannot count is never an error: its
// cells stay empty and the reason travels with it.
#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace iobench::spawn {

struct CounterReading {
  std::string name;
  std::optional<double> value;  // scaled to the whole run when multiplexed; empty: not counted.
                                // task-clock is in nanoseconds, the others are counts.
  double counted_fraction = 0;  // time_running / time_enabled (1: counted all the time)
};

struct CounterProblem {
  std::string name;
  int error = 0;       // errno of perf_event_open (or of finding the tracepoint)
  std::string reason;  // what it means here and what to do
};

// Opens each counter once on the calling process and closes it: what a run will not be able to
// count, and why. The driver warns once from this, before the first run.
std::vector<CounterProblem> probe_counters(const std::vector<std::string>& names);

// One line for a warning and the meta file: the counters grouped by reason.
std::string describe_counter_problems(const std::vector<CounterProblem>& problems);

}  // namespace iobench::spawn
