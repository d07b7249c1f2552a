#include "driver/report/time_unit.hpp"

#include <fmt/format.h>

#include <cmath>

#include "common/error.hpp"
#include "driver/util/format.hpp"

namespace iobench::report {
namespace {

TimeUnit picked(TimeUnit unit, double seconds) {
  return unit != TimeUnit::kAuto ? unit : fitting_unit(seconds);
}

}  // namespace

TimeUnit fitting_unit(double seconds) {
  return seconds < 1 ? TimeUnit::kMillisecond : TimeUnit::kSecond;
}

TimeUnit parse_time_unit(std::string_view name) {
  if (name.empty()) return TimeUnit::kAuto;
  if (name == "second") return TimeUnit::kSecond;
  if (name == "millisecond") return TimeUnit::kMillisecond;
  if (name == "microsecond") return TimeUnit::kMicrosecond;
  throw Error(fmt::format("--time-unit {}: not one of second, millisecond, microsecond", name));
}

std::string_view unit_name(TimeUnit unit, double seconds) {
  switch (picked(unit, seconds)) {
    case TimeUnit::kSecond:
      return "s";
    case TimeUnit::kMillisecond:
      return "ms";
    case TimeUnit::kMicrosecond:
      return "µs";
    case TimeUnit::kAuto:
      break;
  }
  return "s";
}

std::string format_in_unit(double seconds, TimeUnit unit) {
  switch (picked(unit, seconds)) {
    case TimeUnit::kMillisecond:
      return fmt::format("{:.1f}", seconds * 1e3);
    case TimeUnit::kMicrosecond:
      return fmt::format("{:.1f}", seconds * 1e6);
    case TimeUnit::kSecond:
    case TimeUnit::kAuto:
      break;
  }
  return fmt::format("{:.3f}", seconds);
}

std::string format_time(double seconds, TimeUnit unit) {
  if (std::isnan(seconds)) return "-";  // no run to take a time from
  if (unit == TimeUnit::kAuto) return util::format_seconds(seconds);
  return fmt::format("{} {}", format_in_unit(seconds, unit), unit_name(unit));
}

}  // namespace iobench::report
