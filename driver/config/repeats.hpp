#pragma once
// The config's "repeats" key: a plain count, or a precision target (docs/formats.md).
#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config_detail {

// "repeats": N (exactly N measured runs per cell), or {"min": A, "max": B, "ci_pct": P}: at least
// A and at most B runs, stopping a cell once the 95 % interval of its median is within P % of it
// (docs/formats.md, docs/reports.md).
void parse_repeats(const Validator& v, const Json& value, Config& config);

}  // namespace iobench::config_detail
