#pragma once
// The run's context (Google Benchmark's context block): what machine, kernel, build and config
// produced a results file, written to results/meta/<run>.json beside it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::run {

// Host, kernel, CPU model and count, frequency governor, pipe-max-size, build, git commit.
runfile::MachineContext collect_machine_context();

// The build type and compiler of this binary (the worker is built with it).
std::string build_info();

// The first line of a file such as /proc/sys/fs/pipe-max-size; empty when it cannot be read.
std::string read_first_line(const char* path);
// True for builds whose timings mislead (Debug, sanitizers).
bool is_unoptimized_build();

std::string host_name();

// Runs `git -C FOLDER ARGS...` and returns its stdout; empty when git is missing, fails, or the
// folder is no repository.
std::optional<std::string> git_output(const std::filesystem::path& folder,
                                      std::vector<std::string> args);

}  // namespace iobench::run
