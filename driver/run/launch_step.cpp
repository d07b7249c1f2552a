#include "driver/run/launch_step.hpp"

#include <fmt/core.h>
#include <sys/mman.h>

#include <exception>
#include <memory>
#include <thread>
#include <utility>

#include "driver/run/hooks.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/run/iteration.hpp"
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

namespace {

LaunchOutcome new_outcome() {
  LaunchOutcome outcome;
  outcome.stderr_capture = UniqueFd(::memfd_create("iobench-worker-stderr", MFD_CLOEXEC));
  return outcome;
}

// A sink or split folder that cannot be made or read back (a full disk) fails this run, not the
// matrix.
template <typename Step>
void guarded(LaunchOutcome& outcome, Step&& step) {
  try {
    std::forward<Step>(step)();
  } catch (const std::exception& e) {
    outcome.result.outcome = spawn::SpawnOutcome::kSpawnFailed;
    outcome.result.error = e.what();
  }
}

}  // namespace

struct LaunchStep::Staged {
  std::unique_ptr<Sink> sink;
  std::unique_ptr<SplitFolder> split_folder;
  UniqueFd stdin_file;
  spawn::SpawnRequest request;
};

LaunchOutcome LaunchStep::launch(const config::Test& test, const std::filesystem::path& input,
                                 config::SinkKind sink_kind, runfile::RunRow& row,
                                 std::string_view iteration) {
  LaunchOutcome outcome = new_outcome();
  guarded(outcome, [&] {
    const std::unique_ptr<Staged> staged =
        stage(test, input, sink_kind, {config_.cpus, iteration}, outcome);
    if (disturbance_meter_) disturbance_meter_->before_run();
    outcome.result = launcher_.run(staged->request);
    if (disturbance_meter_) outcome.disturbance = disturbance_meter_->after_run(outcome.result);
    conclude(test, *staged, outcome);
  });
  fill_row(test, sink_kind, outcome, row);
  return outcome;
}

std::array<LaunchOutcome, 2> LaunchStep::launch_duet(LaunchStep& partner, const DuetRun& first,
                                                     const DuetRun& second) {
  std::array<LaunchOutcome, 2> outcomes{new_outcome(), new_outcome()};
  std::unique_ptr<Staged> mine;
  std::unique_ptr<Staged> theirs;
  guarded(outcomes[0], [&] {
    mine = stage(first.test, first.input, first.sink_kind, {{first.cpu}, first.iteration},
                 outcomes[0]);
  });
  guarded(outcomes[1], [&] {
    theirs = partner.stage(second.test, second.input, second.sink_kind,
                           {{second.cpu}, second.iteration}, outcomes[1]);
  });
  if (disturbance_meter_) disturbance_meter_->before_run();
  {
    std::jthread beside;
    if (theirs) {
      beside = std::jthread([&] {
        guarded(outcomes[1], [&] { outcomes[1].result = partner.launcher_.run(theirs->request); });
      });
    }
    if (mine) guarded(outcomes[0], [&] { outcomes[0].result = launcher_.run(mine->request); });
  }  // joined: both reaped
  if (disturbance_meter_) {
    const std::array results{outcomes[0].result, outcomes[1].result};
    const std::vector<std::optional<RunDisturbance>> each = disturbance_meter_->after_runs(results);
    outcomes[0].disturbance = each[0];
    outcomes[1].disturbance = each[1];
  }
  if (mine) guarded(outcomes[0], [&] { conclude(first.test, *mine, outcomes[0]); });
  if (theirs) guarded(outcomes[1], [&] { partner.conclude(second.test, *theirs, outcomes[1]); });
  fill_row(first.test, first.sink_kind, outcomes[0], first.row);
  partner.fill_row(second.test, second.sink_kind, outcomes[1], second.row);
  return outcomes;
}

std::unique_ptr<LaunchStep::Staged> LaunchStep::stage(const config::Test& test,
                                                      const std::filesystem::path& input,
                                                      config::SinkKind sink_kind,
                                                      const Where& where, LaunchOutcome& outcome) {
  auto staged = std::make_unique<Staged>();
  SinkSettings sink_settings = sink_settings_;
  sink_settings.output_file = config_.strategies[test.strategy].output_file;
  staged->sink = open_sink(sink_kind, sink_settings);
  spawn::SpawnRequest& request = staged->request;
  request.argv = config::run_argv(test, config_, input.string());
  staged->split_folder =
      std::make_unique<SplitFolder>(test.writes_files, settings_.temp_folder, request.argv);
  staged->stdin_file = open_run_stdin(config_);
  request.stdin_fd = staged->stdin_file.get();
  connect_sink(*staged->sink, request);
  // What a run prints is shown with the inherit sink, stderr too (hyperfine --show-output).
  request.stderr_fd = sink_kind == config::SinkKind::kInherit ? -1 : outcome.stderr_capture.get();
  request.cpus = where.cpus;
  request.env = iteration_env(where.iteration);
  request.timeout_s = config_.timeout_s;
  request.counters = settings_.counters;
  return staged;
}

void LaunchStep::conclude(const config::Test& test, Staged& staged, LaunchOutcome& outcome) {
  bool stray_held_sink = false;
  if (const auto warning = strays_.check(test.name, outcome.result, stray_held_sink);
      !warning.empty())
    progress_.warn(warning);
  if (outcome.result.outcome == spawn::SpawnOutcome::kCancelled || interrupt_requested()) {
    outcome.cancelled = true;
    return;
  }
  outcome.output = finish_sink(*staged.sink, outcome.result);
  staged.split_folder->fold_into(outcome.output);
  if (!pipe_size_given_bytes_) pipe_size_given_bytes_ = outcome.output.pipe_size_bytes;
}

void LaunchStep::fill_row(const config::Test& test, config::SinkKind sink_kind,
                          const LaunchOutcome& outcome, runfile::RunRow& row) {
  if (outcome.cancelled) return;
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
}

void LaunchStep::warn_stderr_of_ok_run(std::size_t test_index, const config::Test& test,
                                       const LaunchOutcome& outcome) {
  if (const std::string line = stderr_first_line(outcome.stderr_capture.get());
      !line.empty() && stderr_warned_tests_.insert(test_index).second) {
    progress_.warn(fmt::format("{}: wrote to stderr on a run that ended ok: {}", test.name, line));
  }
}

}  // namespace iobench::run
