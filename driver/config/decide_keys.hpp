#pragma once
// The config's "decide", "decide_margin_pct" and "family_reference" keys (docs/formats.md,
// "Config"; the rule: docs/reports.md, "Deciding a comparison").
#include <string>

#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// "decide": true or false, on by default with a precision target or a time to fill ("repeats" as
// an object, read before it): its default.
void decide_default(Config& config);

// What "decide_margin_pct", the equivalence margin, must be: a percentage above 0 and below 100.
std::string margin_rule();

// "family_reference": which member of each family the rule compares the others with, as
// {"ps": "64KiB"}; its params are checked by check_family_reference.
void parse_family_reference(const Validator& v, const Json& family, Config& config);

// decide_margin_pct within its range (check_config).
void check_margin(const Validator& v, const Config& config);

// family_reference names params and values of theirs (check_config).
void check_family_reference(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
