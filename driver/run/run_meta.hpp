#pragma once
// The run's context (Google Benchmark's context block): what machine, kernel, build and config
// produced a results file, written to results/meta/<run>.json beside it.
#include <nlohmann/json.hpp>
#include <string>

#include "driver/config/config.hpp"

namespace iobench {

// Host, kernel, CPU model and count, frequency governor, pipe-max-size, build, git commit.
nlohmann::ordered_json collect_machine_context();

// The build type and compiler of this binary (the worker is built with it).
std::string build_info();
// True for builds whose timings mislead (Debug, sanitizers).
bool is_unoptimized_build();

std::string host_name();

}  // namespace iobench
