#pragma once
// What `iobench run` checks before anything runs (every failure is a config or input error,
// exit 2, with nothing written), and the inputs it generates once the checks passed.
#include <filesystem>

#include "driver/config/plan.hpp"

namespace iobench {

// Every worker strategy's arguments name a reader, writer and op the worker has.
void check_worker_strategies(const Config& config, const Plan& plan,
                             const std::filesystem::path& worker);

// Every input without a "generate" exists.
void check_inputs_exist(const Config& config);

// Generates the inputs that do not exist yet (their "generate" recipe).
void prepare_inputs(const Config& config, bool quiet);

}  // namespace iobench
