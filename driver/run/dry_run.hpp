#pragma once
// `iobench run --dry-run`: the expanded plan, one line per run in the order it would run.
#include <string>

#include "driver/config/plan.hpp"

namespace iobench::run {

void print_plan(const config::Config& config, const config::Plan& plan);

// "5 repeats", or "3 to 10 repeats (a cell stops once ...)" with a precision target.
std::string repeats_text(const config::Plan& plan);

}  // namespace iobench::run
