#pragma once
// The config's "decide", "decide_margin_pct" and "family_reference" keys (docs/formats.md,
// "Config"; the rule: docs/reports.md, "Deciding a comparison").
#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// "decide": true or false, on by default with a precision target ("repeats" as an object);
// "decide_margin_pct": the equivalence margin, a percentage above 0 and below 100;
// "family_reference": which member of each family the rule compares the others with. Parsed after
// "repeats" and "params".
void parse_decide(const Validator& v, const Json& root, Config& config);

// decide_margin_pct within its range; family_reference names params and values of theirs
// (check_config).
void check_decide(const Validator& v, const Config& config);

}  // namespace iobench::config::detail
