#pragma once
// The kernel counters a run can record (config key `counters`, docs/formats.md), in column order.
// Here, not in driver/spawn/, because the config, the spawner and the run file all name them.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

namespace iobench {

inline constexpr std::array<std::string_view, 9> kCounterNames = {
    "syscalls", "context-switches", "cpu-migrations", "page-faults",  "task-clock",
    "cycles",   "instructions",     "cache-misses",   "branch-misses"};

inline bool is_counter_name(std::string_view name) {
  return std::find(kCounterNames.begin(), kCounterNames.end(), name) != kCounterNames.end();
}

// The run file's column for a counter: `-` written `_` (context-switches -> context_switches).
inline std::string counter_column(std::string_view name) {
  std::string column(name);
  std::replace(column.begin(), column.end(), '-', '_');
  return column;
}

}  // namespace iobench
