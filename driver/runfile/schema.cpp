#include "driver/runfile/schema.hpp"

#include <algorithm>
#include <cmath>

namespace iobench::runfile {

std::string_view to_string(RunStatus status) noexcept {
  return kStatusNames[static_cast<std::size_t>(status)];
}

std::optional<RunStatus> parse_run_status(std::string_view text) noexcept {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == text) return static_cast<RunStatus>(i);
  }
  return std::nullopt;
}

std::string_view config_name(Counter c) noexcept {
  return kCounterConfigNames[index(c)];
}
std::string_view column_name(Counter c) noexcept {
  return kCounterColumns[index(c)];
}

std::optional<Counter> parse_counter(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kCounterCount; ++i) {
    if (kCounterConfigNames[i] == name) return static_cast<Counter>(i);
  }
  return std::nullopt;
}

std::vector<Counter> in_schema_order(std::vector<Counter> counters) {
  std::sort(counters.begin(), counters.end());
  counters.erase(std::unique(counters.begin(), counters.end()), counters.end());
  return counters;
}

std::vector<std::string_view> run_columns(const std::vector<Counter>& counters) {
  std::vector<std::string_view> columns(kStandardColumns.begin(), kStandardColumns.end());
  const std::vector<Counter> ordered = in_schema_order(counters);
  for (Counter c : ordered) columns.push_back(column_name(c));
  if (!ordered.empty()) columns.push_back(kCountedPctColumn);
  return columns;
}

bool cache_state_holds(std::string_view cache_mode, double cache_pct) noexcept {
  if (cache_mode == "cold") return cache_pct <= kColdMaxCachePct;
  if (cache_mode == "warm") return cache_pct >= kWarmMinCachePct;
  return true;
}

void CacheCheck::add(std::string_view cache_mode, double cache_pct) {
  if (mode.empty()) mode = std::string(cache_mode);
  if (mode != cache_mode) return;
  ++checked;
  if (cache_state_holds(cache_mode, cache_pct)) return;
  ++off;
  const bool cold = cache_mode == "cold";
  if (std::isnan(worst_pct) || (cold ? cache_pct > worst_pct : cache_pct < worst_pct)) {
    worst_pct = cache_pct;
  }
}

std::optional<Metric> parse_metric(std::string_view column) noexcept {
  for (std::size_t i = 0; i < kMetricCount; ++i) {
    if (kMetricNames[i] == column) return static_cast<Metric>(i);
  }
  return std::nullopt;
}

std::string_view metric_name(Metric m) noexcept {
  return kMetricNames[index(m)];
}

}  // namespace iobench::runfile
