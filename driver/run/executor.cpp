#include "driver/run/executor.hpp"

#include <fmt/core.h>
#include <sys/mman.h>

#include <algorithm>
#include <iterator>
#include <system_error>
#include <utility>

#include "common/error.hpp"
#include "common/fd.hpp"
#include "driver/report/precision.hpp"
#include "driver/report/summary.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/run/measurement.hpp"
#include "driver/run/page_cache.hpp"
#include "driver/run/reference_output.hpp"
#include "driver/run/split_folder.hpp"

namespace iobench {
namespace {

namespace fs = std::filesystem;

std::string phase_suffix(RunPhase phase) {
  if (phase == RunPhase::kVerify) return " (verify)";
  return phase == RunPhase::kWarmup ? " (warmup)" : "";
}

// "ignore_failure" (bench -i): a non-zero exit is how the command ends, not a failure.
bool ignores_failure_of(const Config& config, const Test& test) {
  return config.strategies[test.strategy].ignore_failure;
}

}  // namespace

MatrixExecutor::MatrixExecutor(const Config& config, const Plan& plan, Launcher& launcher,
                               RunTsvWriter& writer, ExecutorSettings settings)
    : config_(config),
      plan_(plan),
      launcher_(launcher),
      writer_(writer),
      settings_(std::move(settings)),
      progress_(plan.fill_s > 0 ? 0 : plan.runs.size(), settings_.show_progress),
      verifier_([this](const std::string& message) { progress_.warn(message); },
                [this](const std::string& output_class, std::size_t input) {
                  return independent_reference(output_class, input);
                },
                fmt::format("{}", settings_.stop_at_first_failure ? kNotRunAgainVerifyOff
                                                                  : Verifier::kRowsMarkedMismatch)),
      hooks_(config, plan, launcher),
      ok_elapsed_s_(plan.cells.size()),
      decided_(plan, config),
      disturbed_runs_(plan.cells.size(), 2 * plan.repeats),
      stopped_(plan.cells.size(), false) {
  if (settings_.disturbance_source) disturbance_meter_.emplace(*settings_.disturbance_source);
  sink_settings_.pipe_size_bytes = config.pipe_size_bytes;
  sink_settings_.worker_cpus = config.cpus;
  sink_settings_.drain = config.drain;
  sink_settings_.temp_dir = settings_.temp_folder;
  for (const auto& spec : config.inputs) {
    InputState state;
    state.path = spec.path;
    std::error_code ec;
    const auto size = fs::file_size(spec.path, ec);
    if (!ec) state.size_bytes = size;
    inputs_.push_back(state);
  }
}

MatrixTotals MatrixExecutor::run_all() {
  for (std::size_t r = 0; r < plan_.runs.size(); ++r) {
    if (interrupt_requested() || !totals_.results_error.empty()) break;
    const PlannedRun& run = plan_.runs[r];
    // A round ends where the next run is not a measured run of the same repeat (docs/driver.md,
    // "Disturbance"): its disturbed runs are re-run there.
    if (const auto waiting = disturbed_runs_.next();
        waiting && (run.phase != RunPhase::kMeasure || run.repeat != plan_.runs[*waiting].repeat))
      rerun_disturbed();
    if (stopped_[run.cell]) {
      // Its command failed or mismatched: not run again (stop_at_first_failure).
    } else if (run.phase == RunPhase::kMeasure && decided_.enough(run.cell, ok_elapsed_s_)) {
      ++totals_.runs_saved;  // as precise as asked, or its comparison decided
    } else {
      run_one(r);
      at_run_boundary();
    }
    // A test's cleanup waits while any run is queued to be re-run (it may be one of the test's):
    // finish() owes it then, after the re-runs.
    if (!disturbed_runs_.next()) {
      if (const std::string warning = hooks_.after_run(r); !warning.empty())
        progress_.warn(warning);
    }
  }
  rerun_disturbed();
  std::vector<std::string> ending = hooks_.finish();
  std::ranges::copy(decided_.cut_short(ok_elapsed_s_), std::back_inserter(ending));
  for (const std::string& warning : ending) progress_.warn(warning);
  totals_.decisions = decided_.decisions(ok_elapsed_s_, &totals_.rule_decisions);
  collect_cache_state_warnings();
  for (const auto& ok : ok_elapsed_s_) totals_.ok_runs_per_cell.push_back(ok.size());
  totals_.warnings = progress_.warnings();
  progress_.finish();
  return totals_;
}

void MatrixExecutor::at_run_boundary() {
  if (settings_.after_run) {
    if (const std::string warning = settings_.after_run(); !warning.empty())
      progress_.warn(warning);
  }
}

// Each disturbed run once more, at most the cell's budget; one that is disturbed again waits at
// the back of the queue. A cell already as precise as asked, or decided, needs none.
void MatrixExecutor::rerun_disturbed() {
  while (const auto index = disturbed_runs_.next()) {
    if (interrupt_requested() || !totals_.results_error.empty()) return;
    const std::size_t cell = plan_.runs[*index].cell;
    if (stopped_[cell] || decided_.enough(cell, ok_elapsed_s_)) {
      disturbed_runs_.take(cell);
      continue;
    }
    if (!disturbed_runs_.take(cell)) {
      const Cell& c = plan_.cells[cell];
      if (const auto warning = disturbed_runs_.budget_warning(
              cell,
              fmt::format("{}{} ({} sink)", plan_.tests[c.test].name,
                          inputs_[c.input].path.empty()
                              ? ""
                              : " on " + inputs_[c.input].path.filename().string(),
                          to_string(c.sink)),
              ok_elapsed_s_[cell].size());
          !warning.empty())
        progress_.warn(warning);
      continue;
    }
    run_one(*index);
    at_run_boundary();
  }
}

MatrixExecutor::Outcome MatrixExecutor::launch(const Test& test, const InputState& input,
                                               SinkKind sink_kind, int stderr_fd) {
  Outcome outcome;
  try {
    const std::unique_ptr<Sink> sink = open_sink(sink_kind, sink_settings_);
    SpawnRequest request;
    request.argv = run_argv(test, config_, input.path.string());
    const SplitFolder split_folder(test.writes_files, settings_.temp_folder, request.argv);
    const UniqueFd stdin_file = open_run_stdin(config_);
    request.stdin_fd = stdin_file.get();
    request.stdout_fd = sink->worker_fd();
    // What a run prints is shown with the inherit sink, stderr too (hyperfine --show-output).
    request.stderr_fd = sink_kind == SinkKind::kInherit ? -1 : stderr_fd;
    request.cpus = config_.cpus;
    request.timeout_s = config_.timeout_s;
    request.counters = settings_.counters;
    if (disturbance_meter_) disturbance_meter_->before_run();
    outcome.result = launcher_.run(request);
    if (disturbance_meter_)
      outcome.disturbance = disturbance_meter_->after_run(outcome.result.usage);
    bool stray_held_sink = false;
    if (const auto warning = strays_.check(test.name, outcome.result, stray_held_sink);
        !warning.empty())
      progress_.warn(warning);
    if (outcome.result.outcome == SpawnOutcome::kCancelled || interrupt_requested()) {
      outcome.cancelled = true;
      return outcome;
    }
    outcome.output = sink->finish();
    split_folder.fold_into(outcome.output);
    if (!totals_.pipe_size_given_bytes)
      totals_.pipe_size_given_bytes = outcome.output.pipe_size_bytes;
  } catch (const std::exception& e) {
    // A sink or split folder that cannot be made or read back (a full disk) fails this run, not
    // the matrix.
    outcome.result.outcome = SpawnOutcome::kSpawnFailed;
    outcome.result.error = e.what();
  }
  if (outcome.output.drain_cut_short) {
    progress_.warn(fmt::format(
        "{}: a process kept the sink pipe open after the worker ended; its output was cut off",
        test.name));
  }
  return outcome;
}

bool MatrixExecutor::run_one(std::size_t index) {
  const PlannedRun& run = plan_.runs[index];
  const Cell& cell = plan_.cells[run.cell];
  const Test& test = plan_.tests[cell.test];
  InputState& input = inputs_[cell.input];
  // The verification run always goes into a hashing pipe: the null sink shows nothing.
  const SinkKind sink_kind = run.phase == RunPhase::kVerify ? SinkKind::kPipe : cell.sink;
  progress_.start(index, fmt::format("{} · {} · {}{}", test.name, input.path.filename().string(),
                                     to_string(sink_kind), phase_suffix(run.phase)));

  RunRow row;
  row.test = test.name;
  row.input = input.path.string();
  row.sink = std::string(to_string(sink_kind));
  row.repeat = run.repeat;
  row.host = settings_.host;
  if (!input_ready(run, input, row)) {
    if (run.phase == RunPhase::kMeasure) {
      row.status = RunStatus::kError;
      record(row);
    }
    return false;
  }
  prepare_s_ = 0;
  if (hooks_.any() && !run_hooks_before(index, cell, test, input, row)) return false;

  UniqueFd stderr_capture(::memfd_create("iobench-worker-stderr", MFD_CLOEXEC));
  Outcome outcome = launch(test, input, sink_kind, stderr_capture.get());
  if (outcome.cancelled) return false;
  fill_measurements(row, outcome.result, ignores_failure_of(config_, test));
  if (run.phase == RunPhase::kVerify && row.status != RunStatus::kOk && !stops_after(test, row)) {
    // One retry: a verification run that fails once may have met a passing disturbance; one that
    // fails twice leaves the pair unverified.
    warn_failure(row, run, outcome.result, stderr_capture.get());
    stderr_capture = UniqueFd(::memfd_create("iobench-worker-stderr", MFD_CLOEXEC));
    outcome = launch(test, input, sink_kind, stderr_capture.get());
    if (outcome.cancelled) return false;
    fill_measurements(row, outcome.result, ignores_failure_of(config_, test));
  }
  // The null sink shows nothing: its rows carry no byte count or hash of their own.
  if (sink_kind != SinkKind::kNull) {
    row.output_hash = outcome.output.hash;
    row.bytes_out = outcome.output.bytes;
  }
  return finish_run(index, row, outcome, stderr_capture.get());
}

bool MatrixExecutor::finish_run(std::size_t index, RunRow& row, const Outcome& outcome,
                                int stderr_fd) {
  const PlannedRun& run = plan_.runs[index];
  const Cell& cell = plan_.cells[run.cell];
  const Test& test = plan_.tests[cell.test];
  const bool stop = stops_after(test, row);
  if (stop) {
    progress_.warn(fmt::format("{}; {} (-i/--ignore-failure times it anyway)",
                               failure_line(row, run, outcome.result, stderr_fd), kNotRunAgain));
    stop_pair(cell);
  } else if (row.status != RunStatus::kOk) {
    warn_failure(row, run, outcome.result, stderr_fd);
  } else if (const std::string line = stderr_first_line(stderr_fd);
             !line.empty() && stderr_warned_tests_.insert(cell.test).second) {
    progress_.warn(fmt::format("{}: wrote to stderr on a run that ended ok: {}", test.name, line));
  }

  switch (run.phase) {
    case RunPhase::kVerify:
      if (row.status == RunStatus::kOk) {
        if (!verifier_.on_verified_run(cell, test, row.input, outcome.output) &&
            settings_.stop_at_first_failure)
          stop_pair(cell);
      } else if (!stop) {
        verifier_.on_unverifiable(cell, test, row.input,
                                  "unverified: " + describe_outcome(outcome.result));
      }
      return false;
    case RunPhase::kWarmup:
      return false;
    case RunPhase::kMeasure:
      verifier_.check_measured(cell, test, row, outcome.output);
      if (row.status == RunStatus::kMismatch && settings_.stop_at_first_failure) stop_pair(cell);
      if (outcome.disturbance && judge_disturbance(row, *outcome.disturbance, config_))
        disturbed_runs_.on_disturbed(index, run.cell, row, config_.disturbance);
      note_cache_state(cell.test, row);
      record(row);
      if (row.status == RunStatus::kOk) {
        if (ok_elapsed_s_[run.cell].empty()) decided_.add_to_first_run(run.cell, prepare_s_);
        ok_elapsed_s_[run.cell].push_back(row.elapsed_s);
      }
      return row.status == RunStatus::kDisturbed;
  }
  return false;
}

// The input is still there and in the cache state asked for (row.cache_pct measured). An input
// that cannot be read is this input's problem: its rows are errors, the rest goes on.
bool MatrixExecutor::input_ready(const PlannedRun& run, InputState& input, RunRow& row) {
  if (!input_still_there(input)) return false;
  try {
    row.cache_pct = prepare_cache(input.path);
  } catch (const Error& e) {
    if (!input.read_error_reported) progress_.warn(e.what());
    input.read_error_reported = true;
    if (run.phase == RunPhase::kVerify) {
      const Cell& cell = plan_.cells[run.cell];
      verifier_.on_unverifiable(cell, plan_.tests[cell.test], row.input, e.what());
    }
    return false;
  }
  return true;
}

// After the cache step, so a cold cache's eviction comes first (docs/bench.md); what they did to
// the input's cache state is measured again. A failed hook stops the run: an error row when it is
// measured, an unverified pair at verification.
bool MatrixExecutor::run_hooks_before(std::size_t index, const Cell& cell, const Test& test,
                                      const InputState& input, RunRow& row) {
  const RunHooks::Before before = hooks_.before_run(index);
  prepare_s_ = before.prepare_s;
  if (before.failure.empty()) {
    if (before.ran && !input.path.empty()) row.cache_pct = resident_pct(input.path);
    return true;
  }
  if (interrupt_requested()) return false;
  if (before.first_failure) progress_.warn(before.failure);
  const RunPhase phase = plan_.runs[index].phase;
  if (phase == RunPhase::kVerify) verifier_.on_unverifiable(cell, test, row.input, before.failure);
  if (phase == RunPhase::kMeasure) {
    row.status = RunStatus::kError;
    record(row);
  }
  return false;
}

// The input may have been removed or changed since the start: say so, never assume.
bool MatrixExecutor::input_still_there(InputState& input) {
  if (input.path.empty()) return true;  // no input (docs/formats.md "Config")
  std::error_code ec;
  const auto size_now = fs::file_size(input.path, ec);
  if (ec) {
    if (!input.missing_reported) {
      progress_.warn(
          fmt::format("input {} is gone or unreadable: {}", input.path.string(), ec.message()));
      input.missing_reported = true;
    }
    return false;
  }
  if (input.size_bytes && size_now != *input.size_bytes && !input.size_change_reported) {
    progress_.warn(
        fmt::format("input {} changed size during the run: {} -> {} bytes; later runs read "
                    "different data",
                    input.path.string(), *input.size_bytes, size_now));
    input.size_change_reported = true;
  }
  return true;
}

// Brings the input into the configured cache state and returns its measured residency.
std::optional<double> MatrixExecutor::prepare_cache(const fs::path& path) const {
  if (path.empty()) return std::nullopt;  // no input, no cache step
  switch (config_.cache) {
    case CacheMode::kWarm:
      if (const auto resident = resident_pct(path); resident && *resident >= 100.0) return resident;
      warm_page_cache(path);
      return resident_pct(path);
    case CacheMode::kCold:
      return evict_page_cache(path, settings_.allow_drop_caches);
    case CacheMode::kNone:
      break;
  }
  return resident_pct(path);
}

std::optional<ExpectedOutput> MatrixExecutor::independent_reference(const std::string& output_class,
                                                                    std::size_t input) {
  // Without an input nothing can be computed from it: the class's first test is the reference.
  if (inputs_[input].path.empty()) return std::nullopt;
  return reference_output(output_class, inputs_[input].path);
}

void MatrixExecutor::record(const RunRow& row) {
  try {
    writer_.append(row);
  } catch (const Error& e) {
    totals_.results_error = e.what();
    return;
  }
  ++totals_.rows_written;
  // A disturbed run ended ok: it is out of the statistics, not a failure.
  if (row.status != RunStatus::kOk && row.status != RunStatus::kDisturbed) ++totals_.bad_rows;
}

// The state a row claims is checked, not assumed (docs/driver.md, "The page cache"): a test whose
// ok rows were not in the cache state asked for is named in the meta file. The summary that ends
// the run warns about them, per group and in the same words, so the executor does not.
void MatrixExecutor::note_cache_state(std::size_t test, const RunRow& row) {
  if (row.status == RunStatus::kOk && row.cache_pct) {
    cache_checks_[test].add(to_string(config_.cache), *row.cache_pct);
  }
}

void MatrixExecutor::collect_cache_state_warnings() {
  for (const auto& [test, check] : cache_checks_) {
    if (check.off > 0) {
      totals_.cache_state_warnings.push_back(
          report::cache_state_warning(plan_.tests[test].name, check));
    }
  }
}

}  // namespace iobench
