#include "driver/config/repeats.hpp"

#include <fmt/core.h>

namespace iobench::config::detail {
namespace {

// A positive number at most `most`, or fail naming the key.
double positive(const Validator& v, const Json& value, const std::string& key, double most,
                const char* what) {
  if (!value.is_number() || !(value.get<double>() > 0) || value.get<double>() > most)
    v.fail(key, what);
  return value.get<double>();
}

}  // namespace

void parse_repeats(const Validator& v, const Json& value, Config& config) {
  if (!value.is_object()) {
    config.repeats = static_cast<int>(v.integer(value, "repeats", 1, 1000000));
    config.repeats_min = config.repeats;
    config.repeats_ci_pct = 0;
    config.repeats_fill_s = 0;
    return;
  }
  for (const auto& [key, unused] : value.items()) {
    if (key != "min" && key != "max" && key != "ci_pct" && key != "fill_s")
      v.fail(Validator::join("repeats", key), "unknown key (expected min, max, ci_pct or fill_s)");
  }
  const auto min = value.find("min");
  const auto max = value.find("max");
  const auto ci_pct = value.find("ci_pct");
  const auto fill_s = value.find("fill_s");
  if (min == value.end() || max == value.end() ||
      (ci_pct == value.end()) == (fill_s == value.end()))
    v.fail("repeats",
           "needs min, max and one of ci_pct or fill_s, e.g. {\"min\": 3, \"max\": 10, "
           "\"ci_pct\": 2} or {\"min\": 10, \"max\": 1000, \"fill_s\": 3}");
  // A time to fill may be met by one run (hyperfine's -m 1); a precision target needs a spread.
  config.repeats_min =
      static_cast<int>(v.integer(*min, "repeats.min", fill_s != value.end() ? 1 : 2, 1000000));
  config.repeats = static_cast<int>(v.integer(*max, "repeats.max", 2, 1000000));
  if (config.repeats < config.repeats_min)
    v.fail("repeats.max", fmt::format("must be at least repeats.min ({})", config.repeats_min));
  config.repeats_ci_pct = 0;
  config.repeats_fill_s = 0;
  if (ci_pct != value.end()) {
    config.repeats_ci_pct =
        positive(v, *ci_pct, "repeats.ci_pct", 100, "must be a percentage above 0 and at most 100");
  } else {
    config.repeats_fill_s = positive(v, *fill_s, "repeats.fill_s", 86400,
                                     "must be a number of seconds above 0 and at most 86400");
  }
}

}  // namespace iobench::config::detail
