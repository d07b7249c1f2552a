#pragma once
// The config's "disturbance" and "disturbance_threshold_cpus" keys (docs/formats.md, "Config";
// the rule: docs/driver.md, "Disturbance").
#include <optional>
#include <string>

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

// "disturbance" (off, flag or rerun): its default, kDisturbanceEnv's value where it is set (an
// Error naming it when it is none of them; read even when the key is there), rerun otherwise.
void disturbance_default(Config& config);

// What "disturbance_threshold_cpus" must be: a number of CPUs above 0 and at most 1024.
std::string threshold_rule();

// disturbance_threshold_cpus within its range (check_config).
void check_disturbance(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
