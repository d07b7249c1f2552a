#pragma once
// bench's options that make its request (driver/config/bench_options.hpp), added to CLI11 from
// the one table, in its order.
#include <CLI/CLI.hpp>

#include "driver/config/bench_config.hpp"

namespace iobench::cli {

// Adds every option of bench_options() to `sub`, each setting its field of `request`.
void add_bench_request_options(CLI::App& sub, config::BenchRequest& request);

}  // namespace iobench::cli
