#pragma once
// From the spawner's figures to a row: wait4's rusage and the way the worker ended become the
// row's measurements, status and exit code (docs/driver.md).
#include <string>

#include "driver/config/plan.hpp"
#include "driver/runfile/writer.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench::run {

// Fills the measured columns, status and exit_code of row from result. With ignore_failure (a
// strategy's "ignore_failure", bench -i) a non-zero exit is `ok`, its exit code kept.
void fill_measurements(runfile::RunRow& row, const spawn::SpawnResult& result,
                       const config::IgnoredFailures& ignore_failure = {});

// How the worker ended, for a warning: "exit code 3", "killed by signal 9 (Killed)", ...
std::string describe_outcome(const spawn::SpawnResult& result);

// The last (up to 3) non-empty lines of what a worker wrote to its stderr capture, joined by
// " | "; empty when it wrote nothing.
std::string stderr_tail(int memfd);

// The first non-empty line of the stderr capture; empty when the worker wrote nothing.
std::string stderr_first_line(int memfd);

// The command's own failure (failed, signal, timeout), as hyperfine stops at it: iobench's side
// of a run (a sink that could not be made, a stray holding the pipe) is an `error`, which does
// not stop it (bench, ExecutorSettings::stop_at_first_failure).
bool command_failed(const runfile::RunRow& row);

// How the run loop says a run that did not end ok: "TEST on INPUT (SINK sink, WHICH): HOW: TAIL",
// WHICH "verification run", "warmup" or "run N", TAIL the stderr capture's (stderr_tail; none
// with stderr_fd -1).
std::string failure_line(const runfile::RunRow& row, const config::PlannedRun& run,
                         const spawn::SpawnResult& result, int stderr_fd);

}  // namespace iobench::run
