#pragma once
// Checks of a parsed config across its keys (docs/formats.md "Config"): the placeholders every
// strategy uses are defined and make each test's name its own, and no two strategies share a
// name. Internal to driver/config.
#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config_detail {

// Every {NAME} in a strategy's name and arguments is a param (or {input}, when the config has
// inputs), and every param its arguments use is in its name.
void check_placeholders(const Validator& v, const Config& config);

void check_unique_names(const Validator& v, const Config& config);

}  // namespace iobench::config_detail
