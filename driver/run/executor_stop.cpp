// How the run loop says a run that did not end ok, and `iobench bench`'s stop at a command's
// first failure or mismatch (ExecutorSettings::stop_at_first_failure, docs/bench.md).
#include <fmt/core.h>

#include "driver/run/executor.hpp"
#include "driver/run/measurement.hpp"

namespace iobench {
namespace {

// The command's own failure, as hyperfine stops at it: iobench's side of a run (a sink that could
// not be made, a stray holding the pipe) is an `error`, which does not stop it.
bool command_failed(const RunRow& row) {
  return row.status == RunStatus::kFailed || row.status == RunStatus::kSignal ||
         row.status == RunStatus::kTimeout;
}

}  // namespace

std::string MatrixExecutor::failure_line(const RunRow& row, const PlannedRun& run,
                                         const SpawnResult& result, int stderr_fd) const {
  std::string detail = describe_outcome(result);
  if (const std::string tail = stderr_fd >= 0 ? stderr_tail(stderr_fd) : ""; !tail.empty()) {
    detail += ": " + tail;
  }
  std::string which;
  switch (run.phase) {
    case RunPhase::kVerify:
      which = "verification run";
      break;
    case RunPhase::kWarmup:
      which = "warmup";
      break;
    case RunPhase::kMeasure:
      which = fmt::format("run {}", run.repeat);
      break;
  }
  return fmt::format("{}{} ({} sink, {}): {}", row.test,
                     row.input.empty() ? "" : " on " + row.input, row.sink, which, detail);
}

void MatrixExecutor::warn_failure(const RunRow& row, const PlannedRun& run,
                                  const SpawnResult& result, int stderr_fd) {
  progress_.warn(failure_line(row, run, result, stderr_fd));
}

bool MatrixExecutor::stops_after(const Test& test, const RunRow& row) const {
  return settings_.stop_at_first_failure && command_failed(row) &&
         !config_.strategies[test.strategy].ignore_failure;
}

// Every cell of the pair: its sinks run the same command on the same input.
void MatrixExecutor::stop_pair(const Cell& cell) {
  const std::size_t test = cell.test;
  const std::size_t input = cell.input;
  bool stopped_now = false;
  for (std::size_t c = 0; c < plan_.cells.size(); ++c) {
    if (plan_.cells[c].test == test && plan_.cells[c].input == input && !stopped_[c]) {
      stopped_[c] = true;
      stopped_now = true;
    }
  }
  if (stopped_now) ++totals_.stopped_pairs;
}

}  // namespace iobench
