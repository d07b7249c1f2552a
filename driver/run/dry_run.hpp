#pragma once
// `iobench run --dry-run`: the expanded plan, one line per run in the order it would run.
#include <string>

#include "driver/config/plan.hpp"

namespace iobench::run {

void print_plan(const config::Config& config, const config::Plan& plan);

// "5 repeats", or "3 to 10 repeats (a cell stops once ...)" with a precision target.
std::string repeats_text(const config::Plan& plan);

// The fewest measured runs a cell of the plan may end with: its repeats, a precision target's
// min, or the sequential rule's first look when decided comparisons stop cells (config decide).
int fewest_repeats(const config::Config& config, const config::Plan& plan);

// How long the plan's runs take, as far as a plan can tell (docs/driver.md, "Order, failures,
// interrupts"): "at least 17 min (iobench's own 1 ms a run), and 17 min more for each
// millisecond a run takes"; when cells may stop after fewer runs than the plan's repeats
// (`fewest_per_cell`, as fewest_repeats gives it), a range, "0 s to 33 min (...; a cell stops after
// 2 to 1000000 repeats), and 0 s to 33 min more for ..."; with a time to fill, "about 100 s of
// measured runs (each cell fills 10 s)".
std::string duration_text(const config::Plan& plan, int fewest_per_cell);

}  // namespace iobench::run
