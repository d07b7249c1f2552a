#pragma once
// `iobench run --dry-run`: the expanded plan, one line per run in the order it would run.
#include <string>

#include "driver/config/plan.hpp"

namespace iobench::run {

void print_plan(const config::Config& config, const config::Plan& plan);

// "5 repeats", or "3 to 10 repeats (a cell stops once ...)" with a precision target.
std::string repeats_text(const config::Plan& plan);

// How long the plan's runs take, as far as a plan can tell (docs/driver.md, "Order, failures,
// interrupts"): "at least 17 min (iobench's own 1 ms a run), and 17 min more for each
// millisecond a run takes"; with a time to fill, "about 100 s of measured runs (each cell fills
// 10 s)".
std::string duration_text(const config::Plan& plan);

}  // namespace iobench::run
