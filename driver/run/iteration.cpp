#include "driver/run/iteration.hpp"

#include <fmt/core.h>

namespace iobench::run {

std::string iteration_value(const config::PlannedRun& run, int warmups_before) {
  switch (run.phase) {
    case config::RunPhase::kVerify:
      return "verify";
    case config::RunPhase::kWarmup:
      return fmt::format("warmup-{}", warmups_before);
    case config::RunPhase::kMeasure:
      return fmt::format("{}", run.repeat - 1);
  }
  return "";
}

std::vector<std::string> iteration_env(std::string_view value) {
  if (value.empty()) return {};
  return {fmt::format("{}={}", kIterationVariable, value)};
}

}  // namespace iobench::run
