#pragma once
// `iobench run --dry-run`: the expanded plan, one line per run in the order it would run.
#include "driver/config/plan.hpp"

namespace iobench {

void print_plan(const Config& config, const Plan& plan);

}  // namespace iobench
