#pragma once
// What `iobench run` checks before anything runs (every failure is a config or input error,
// exit 2, with nothing written), and the inputs it generates once the checks passed.
#include <filesystem>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"

namespace iobench::run {

// Every worker strategy's arguments name a reader, writer and op its worker has (the worker
// its test runs: --versus has two).
void check_worker_strategies(const config::Config& config, const config::Plan& plan);

// Settings the machine cannot honour, refused before anything runs (exit 2): `cpus` naming a CPU
// this process may not run on (usable_cpu_list), a `pipe_size` above
// /proc/sys/fs/pipe-max-size, the `mmap` reader on an input that is a pipe (FIFO).
void check_machine_settings(const config::Config& config, const config::Plan& plan);

// Every input without a "generate" exists, and the config's stdin file can be read.
void check_inputs_exist(const config::Config& config);

// Generates the inputs that do not exist yet (their "generate" recipe).
void prepare_inputs(const config::Config& config, bool quiet);

}  // namespace iobench::run
