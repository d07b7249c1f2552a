#pragma once
// HYPERFINE_ITERATION (hyperfine 1.19 on): each run's number in its environment, so a command can
// name what it writes by the run (`log-$HYPERFINE_ITERATION`). iobench sets it for the command
// and, as hyperfine's issue #781 asks, for the run's prepare and conclude hooks too: the three
// see the same value (docs/bench.md, "The run's number").
#include <string>
#include <string_view>
#include <vector>

#include "driver/config/plan.hpp"

namespace iobench::run {

inline constexpr std::string_view kIterationVariable = "HYPERFINE_ITERATION";

// As hyperfine numbers them, from 0: "warmup-K" for a cell's warmup K (counted as they start:
// `warmups_before` is how many of the cell's warmups started before this one), "K" for its
// measured run K + 1 (a disturbed run run again keeps its number); "verify" for a verification
// run, which hyperfine has not.
std::string iteration_value(const config::PlannedRun& run, int warmups_before);

// The spawn request's environment entry for it; none for an empty value (setup, cleanup).
std::vector<std::string> iteration_env(std::string_view value);

}  // namespace iobench::run
