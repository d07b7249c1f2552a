#include "driver/config/disturbance_keys.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "driver/config/choices.hpp"

namespace iobench::config {
namespace {

// In the enum's order.
constexpr std::array<std::string_view, 3> kDisturbanceModeNames{"off", "flag", "rerun"};
// A run's processes waiting for more than a thousand CPUs' worth is a typo.
constexpr double kMaxDisturbanceThresholdCpus = 1024;

std::optional<DisturbanceMode> mode_named(std::string_view text) {
  const auto found = std::find(kDisturbanceModeNames.begin(), kDisturbanceModeNames.end(), text);
  if (found == kDisturbanceModeNames.end()) return std::nullopt;
  return static_cast<DisturbanceMode>(found - kDisturbanceModeNames.begin());
}

}  // namespace

std::vector<std::string> disturbance_mode_names() {
  return {kDisturbanceModeNames.begin(), kDisturbanceModeNames.end()};
}

std::optional<DisturbanceMode> disturbance_mode_named(std::string_view text) {
  return mode_named(text);
}

std::string_view to_string(DisturbanceMode mode) noexcept {
  return kDisturbanceModeNames[static_cast<std::size_t>(mode)];
}

std::optional<DisturbanceMode> disturbance_mode_from_env() {
  const char* env = std::getenv(kDisturbanceEnv);
  if (env == nullptr || *env == '\0') return std::nullopt;
  if (const auto mode = mode_named(env)) return mode;
  throw Error(fmt::format("{}: '{}' is not one of: off, flag, rerun", kDisturbanceEnv, env));
}

namespace detail {

void disturbance_default(Config& config) {
  // The environment's default where it is set: a test suite that runs its tests side by side
  // measures each one's runs disturbed by the others.
  if (const auto mode = disturbance_mode_from_env()) config.disturbance = *mode;
}

std::string threshold_rule() {
  return fmt::format("must be a number of CPUs above 0 and at most {}",
                     kMaxDisturbanceThresholdCpus);
}

void check_disturbance(const Validator& v, const Config& config) {
  if (!(config.disturbance_threshold_cpus > 0) ||
      config.disturbance_threshold_cpus > kMaxDisturbanceThresholdCpus)
    v.fail("disturbance_threshold_cpus", threshold_rule());
}

}  // namespace detail
}  // namespace iobench::config
