#pragma once
// What a run does with the config's `counters` (docs/driver.md, "Counters"): which of them this
// machine can count (probed once, before the first run), the one warning and the meta-file
// entry for the others, and each row's counter cells from what the spawner counted.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/fd.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/spawn/counter_events.hpp"
#include "driver/spawn/kernel_counters.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench::run {

struct CountingPlan {
  std::vector<std::string> requested;              // as the config lists them
  std::vector<std::string> counted;                // what each run asks the spawner for
  std::vector<spawn::CounterProblem> unavailable;  // the others, with why
  // One event per counted counter, held by the driver while the plan lives (hold_counter): a
  // run's counters then close without waiting for the kernel to unregister their type.
  std::vector<UniqueFd> held_events;
};

CountingPlan plan_counting(const std::vector<runfile::Counter>& requested);

// The row's counter cells and counted_pct from the spawner's readings: a counter not counted
// stays empty, never 0.
void fill_counters(runfile::RunRow& row, const spawn::SpawnResult& result);

// One line naming the counters left empty and why; empty when every counter can be counted.
std::string counting_warning(const CountingPlan& plan);

// The run record's "counters": requested, counted, unavailable (name, reason).
runfile::CounterAvailability counter_availability(const CountingPlan& plan);

}  // namespace iobench::run
