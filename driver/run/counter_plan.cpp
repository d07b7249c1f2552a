#include "driver/run/counter_plan.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace iobench::run {

CountingPlan plan_counting(const std::vector<runfile::Counter>& requested) {
  CountingPlan plan;
  for (const runfile::Counter counter : requested)
    plan.requested.emplace_back(config_name(counter));
  plan.unavailable = spawn::probe_counters(plan.requested);
  for (const auto& name : plan.requested) {
    const bool refused =
        std::any_of(plan.unavailable.begin(), plan.unavailable.end(),
                    [&](const spawn::CounterProblem& p) { return p.name == name; });
    if (refused) continue;
    plan.counted.push_back(name);
    int error = 0;
    if (UniqueFd held(spawn::hold_counter(name.c_str(), &error)); held)
      plan.held_events.push_back(std::move(held));
  }
  return plan;
}

std::string counting_warning(const CountingPlan& plan) {
  if (plan.unavailable.empty()) return {};
  return fmt::format("counters not counted on this machine, their cells stay empty: {}",
                     spawn::describe_counter_problems(plan.unavailable));
}

runfile::CounterAvailability counter_availability(const CountingPlan& plan) {
  runfile::CounterAvailability availability{plan.requested, plan.counted, {}};
  for (const auto& problem : plan.unavailable) {
    availability.unavailable.emplace_back(problem.name, problem.reason);
  }
  return availability;
}

void fill_counters(runfile::RunRow& row, const spawn::SpawnResult& result) {
  std::optional<double> smallest_fraction;
  for (const auto& reading : result.counters) {
    const auto counter = runfile::parse_counter(reading.name);
    if (!counter || !reading.value) continue;
    row.counters[index(*counter)] = static_cast<std::uint64_t>(std::llround(*reading.value));
    smallest_fraction = std::min(smallest_fraction.value_or(1.0), reading.counted_fraction);
  }
  if (smallest_fraction) row.counted_pct = *smallest_fraction * 100.0;
}

}  // namespace iobench::run
