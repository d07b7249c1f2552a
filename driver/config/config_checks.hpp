#pragma once
// Checks of a config (docs/formats.md "Config"), behind check_config: each value's range, the
// placeholders every strategy uses are defined and make each test's name its own, and no two
// strategies share a name. Internal to driver/config.
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// Every {NAME} in a strategy's name and arguments is a param (or {input}, when the config has
// inputs), and every param its arguments use is in its name.
void check_placeholders(const Validator& v, const Config& config);

void check_unique_names(const Validator& v, const Config& config);

// The range of each of these keys, and "order"'s rules with "cpus" and "cache" (a duet): the
// key table's checks.
void check_warmup(const Validator& v, const Config& config);
void check_timeout(const Validator& v, const Config& config);
void check_repeats(const Validator& v, const Config& config);
void check_order(const Validator& v, const Config& config);

// What "timeout_s" must be, in the words of its error.
std::string timeout_rule();

// The counters of these config names, in order, each once; `path` names the list in errors.
std::vector<runfile::Counter> counters_named(const Validator& v,
                                             const std::vector<std::string>& names,
                                             const std::string& path);

}  // namespace iobench::config::detail
