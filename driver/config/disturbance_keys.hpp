#pragma once
// The config's "disturbance" and "disturbance_threshold_cpus" keys (docs/formats.md, "Config";
// the rule: docs/driver.md, "Disturbance").
#include <optional>

#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config {

// kDisturbanceEnv's mode; empty when it is unset or empty, an Error naming it (exit 2) when it is
// none of off, flag, rerun. The default of run's config key and of bench's --disturbance.
std::optional<DisturbanceMode> disturbance_mode_from_env();

// The mode of that name (off, flag, rerun); nullopt for any other text.
std::optional<DisturbanceMode> disturbance_mode_named(std::string_view text);

}  // namespace iobench::config

namespace iobench::config::detail {

// "disturbance": off, flag or rerun, by default kDisturbanceEnv's value where it is set (an
// Error naming it when it is none of them), rerun otherwise; "disturbance_threshold_cpus": a
// number of CPUs above 0.
void parse_disturbance(const Validator& v, const Json& root, Config& config);

// disturbance_threshold_cpus within its range (check_config).
void check_disturbance(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
