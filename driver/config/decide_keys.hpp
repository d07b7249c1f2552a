#pragma once
// The config's "decide" and "decide_margin_pct" keys (docs/formats.md, "Config"; the rule:
// docs/reports.md, "Deciding a comparison").
#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// "decide": true or false, on by default with a precision target ("repeats" as an object);
// "decide_margin_pct": the equivalence margin, a percentage above 0 and below 100. Parsed after
// "repeats".
void parse_decide(const Validator& v, const Json& root, Config& config);

// decide_margin_pct within its range (check_config).
void check_decide(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
