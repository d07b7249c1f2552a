#pragma once
// From the spawner's figures to a row: wait4's rusage and the way the worker ended become the
// row's measurements, status and exit code (docs/driver.md).
#include <string>

#include "driver/runfile/writer.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench {

// Fills the measured columns, status and exit_code of row from result. With ignore_failure (a
// strategy's "ignore_failure", bench -i) a non-zero exit is `ok`, its exit code kept.
void fill_measurements(RunRow& row, const SpawnResult& result, bool ignore_failure = false);

// How the worker ended, for a warning: "exit code 3", "killed by signal 9 (Killed)", ...
std::string describe_outcome(const SpawnResult& result);

// The last (up to 3) non-empty lines of what a worker wrote to its stderr capture, joined by
// " | "; empty when it wrote nothing.
std::string stderr_tail(int memfd);

// The first non-empty line of the stderr capture; empty when the worker wrote nothing.
std::string stderr_first_line(int memfd);

}  // namespace iobench
