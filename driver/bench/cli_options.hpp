#pragma once
// bench's options that make its request (driver/bench/options.hpp), added to CLI11 from
// the one table, in its order.
#include <CLI/CLI.hpp>

#include "driver/bench/request.hpp"

namespace iobench::bench {

// Adds every option of bench_options() to `sub`, each setting its field of `request`.
void add_bench_request_options(CLI::App& sub, bench::BenchRequest& request);

}  // namespace iobench::bench
