#include "driver/config/repeats.hpp"

#include <fmt/core.h>

namespace iobench::config_detail {

void parse_repeats(const Validator& v, const Json& value, Config& config) {
  if (!value.is_object()) {
    config.repeats = static_cast<int>(v.integer(value, "repeats", 1, 1000000));
    config.repeats_min = config.repeats;
    config.repeats_ci_pct = 0;
    return;
  }
  for (const auto& [key, unused] : value.items()) {
    if (key != "min" && key != "max" && key != "ci_pct")
      v.fail(Validator::join("repeats", key), "unknown key (expected min, max, ci_pct)");
  }
  const auto min = value.find("min");
  const auto max = value.find("max");
  const auto ci_pct = value.find("ci_pct");
  if (min == value.end() || max == value.end() || ci_pct == value.end())
    v.fail("repeats", "needs min, max and ci_pct, e.g. {\"min\": 3, \"max\": 10, \"ci_pct\": 2}");
  config.repeats_min = static_cast<int>(v.integer(*min, "repeats.min", 2, 1000000));
  config.repeats = static_cast<int>(v.integer(*max, "repeats.max", 2, 1000000));
  if (config.repeats < config.repeats_min)
    v.fail("repeats.max", fmt::format("must be at least repeats.min ({})", config.repeats_min));
  if (!ci_pct->is_number() || !(ci_pct->get<double>() > 0) || ci_pct->get<double>() > 100)
    v.fail("repeats.ci_pct", "must be a percentage above 0 and at most 100");
  config.repeats_ci_pct = ci_pct->get<double>();
}

}  // namespace iobench::config_detail
