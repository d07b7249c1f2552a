#include "driver/run/launch_step.hpp"

#include <fmt/core.h>
#include <sys/mman.h>

#include <exception>
#include <memory>
#include <utility>

#include "driver/run/bench_hooks.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/run/measurement.hpp"
#include "driver/run/split_folder.hpp"

namespace iobench::run {

LaunchStep::LaunchStep(const config::Config& config, Launcher& launcher, LaunchSettings settings,
                       Progress& progress)
    : config_(config), launcher_(launcher), settings_(std::move(settings)), progress_(progress) {
  if (settings_.disturbance_source) disturbance_meter_.emplace(*settings_.disturbance_source);
  sink_settings_.pipe_size_bytes = config.pipe_size_bytes;
  sink_settings_.worker_cpus = config.cpus;
  sink_settings_.drain = config.drain;
  sink_settings_.temp_dir = settings_.temp_folder;
}

LaunchOutcome LaunchStep::launch(const config::Test& test, const std::filesystem::path& input,
                                 config::SinkKind sink_kind, runfile::RunRow& row) {
  LaunchOutcome outcome;
  outcome.stderr_capture = UniqueFd(::memfd_create("iobench-worker-stderr", MFD_CLOEXEC));
  try {
    spawn(test, input, sink_kind, outcome);
  } catch (const std::exception& e) {
    // A sink or split folder that cannot be made or read back (a full disk) fails this run, not
    // the matrix.
    outcome.result.outcome = spawn::SpawnOutcome::kSpawnFailed;
    outcome.result.error = e.what();
  }
  if (outcome.cancelled) return outcome;
  if (outcome.output.drain_cut_short) {
    progress_.warn(fmt::format(
        "{}: a process kept the sink pipe open after the worker ended; its output was cut off",
        test.name));
  }
  // "ignore_failure" (bench -i): a non-zero exit is how the command ends, not a failure.
  fill_measurements(row, outcome.result, config_.strategies[test.strategy].ignore_failure);
  // The null sink shows nothing: its rows carry no byte count or hash of their own.
  if (sink_kind != config::SinkKind::kNull) {
    row.output_hash = outcome.output.hash;
    row.bytes_out = outcome.output.bytes;
  }
  return outcome;
}

void LaunchStep::spawn(const config::Test& test, const std::filesystem::path& input,
                       config::SinkKind sink_kind, LaunchOutcome& outcome) {
  const std::unique_ptr<Sink> sink = open_sink(sink_kind, sink_settings_);
  spawn::SpawnRequest request;
  request.argv = config::run_argv(test, config_, input.string());
  const SplitFolder split_folder(test.writes_files, settings_.temp_folder, request.argv);
  const UniqueFd stdin_file = open_run_stdin(config_);
  request.stdin_fd = stdin_file.get();
  request.stdout_fd = sink->worker_fd();
  // What a run prints is shown with the inherit sink, stderr too (hyperfine --show-output).
  request.stderr_fd = sink_kind == config::SinkKind::kInherit ? -1 : outcome.stderr_capture.get();
  request.cpus = config_.cpus;
  request.timeout_s = config_.timeout_s;
  request.counters = settings_.counters;
  if (disturbance_meter_) disturbance_meter_->before_run();
  outcome.result = launcher_.run(request);
  if (disturbance_meter_) outcome.disturbance = disturbance_meter_->after_run(outcome.result);
  bool stray_held_sink = false;
  if (const auto warning = strays_.check(test.name, outcome.result, stray_held_sink);
      !warning.empty())
    progress_.warn(warning);
  if (outcome.result.outcome == spawn::SpawnOutcome::kCancelled || interrupt_requested()) {
    outcome.cancelled = true;
    return;
  }
  outcome.output = sink->finish();
  split_folder.fold_into(outcome.output);
  if (!pipe_size_given_bytes_) pipe_size_given_bytes_ = outcome.output.pipe_size_bytes;
}

void LaunchStep::warn_stderr_of_ok_run(std::size_t test_index, const config::Test& test,
                                       const LaunchOutcome& outcome) {
  if (const std::string line = stderr_first_line(outcome.stderr_capture.get());
      !line.empty() && stderr_warned_tests_.insert(test_index).second) {
    progress_.warn(fmt::format("{}: wrote to stderr on a run that ended ok: {}", test.name, line));
  }
}

}  // namespace iobench::run
