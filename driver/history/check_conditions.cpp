#include "driver/history/check_conditions.hpp"

#include <fmt/format.h>

#include <vector>

#include "driver/history/check.hpp"

namespace iobench::history {

Conditions conditions_of(const RunPoint& point, const StoredSeries& series) {
  Conditions c;
  for (const StoredSample* sample : point.samples) {
    if (!counts(*sample, series) || !sample->cache_pct) continue;
    if (!runfile::cache_state_holds(series.key.cache_mode, *sample->cache_pct)) {
      c.cache_held = false;
      c.worst_cache_pct = *sample->cache_pct;
    }
  }
  c.busy_cpus = point.run->busy_cpus_start;
  c.busy = c.busy_cpus && *c.busy_cpus >= kBusyCpus;
  c.kernel = point.run->kernel;
  c.harness = point.run->conditions;
  return c;
}

bool same_conditions(const Conditions& a, const Conditions& b) {
  return a.cache_held == b.cache_held && a.busy == b.busy && a.kernel == b.kernel &&
         a.harness == b.harness;
}

std::string what_moved(const Conditions& now, const Conditions& before,
                       const std::string& cache_mode) {
  std::vector<std::string> parts;
  if (now.cache_held != before.cache_held) {
    parts.push_back(now.cache_held ? fmt::format("cache {} now, not before", cache_mode)
                                   : fmt::format("cache no longer {} (cache_pct {:.1f})",
                                                 cache_mode, now.worst_cache_pct));
  }
  if (now.busy != before.busy) {
    parts.push_back(fmt::format(
        "{} machine ({:.2f} CPUs busy with others at the start, before "
        "{:.2f})",
        now.busy ? "a busy" : "a quiet", now.busy_cpus.value_or(0), before.busy_cpus.value_or(0)));
  }
  if (now.kernel != before.kernel) {
    parts.push_back(fmt::format("another kernel ({} -> {})", before.kernel, now.kernel));
  }
  if (now.harness != before.harness) {
    parts.push_back(fmt::format("the harness's conditions changed ({} -> {})",
                                before.harness.empty() ? "none" : before.harness,
                                now.harness.empty() ? "none" : now.harness));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace iobench::history
