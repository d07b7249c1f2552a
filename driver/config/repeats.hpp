#pragma once
// The config's "repeats" key: a plain count, a precision target or a time to fill
// (docs/formats.md).
#include "driver/config/config.hpp"
#include "driver/config/validator.hpp"

namespace iobench::config::detail {

// "repeats": N (exactly N measured runs per cell); {"min": A, "max": B, "ci_pct": P}: at least
// A and at most B runs, stopping a cell once the 95 % interval of its median is within P % of it
// (docs/reports.md, "Precision target"); or {"min": A, "max": B, "fill_s": S}: as many runs as
// fill S seconds at the cell's first run's time, between A and B (hyperfine's rule).
void parse_repeats(const Validator& v, const Json& value, Config& config);

}  // namespace iobench::config::detail
