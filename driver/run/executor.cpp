#include "driver/run/executor.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <iterator>
#include <utility>

#include "driver/run/interrupt.hpp"
#include "driver/run/iteration.hpp"
#include "driver/run/measurement.hpp"

namespace iobench::run {
namespace {

namespace fs = std::filesystem;

// What a command stopped at its failure is told (stop_at_first_failure).
constexpr const char* kNotRunAgain = "it is not run again";

std::string phase_suffix(config::RunPhase phase) {
  if (phase == config::RunPhase::kVerify) return " (verify)";
  return phase == config::RunPhase::kWarmup ? " (warmup)" : "";
}

LaunchSettings launch_settings(const ExecutorSettings& settings) {
  return LaunchSettings{settings.temp_folder, settings.counters, settings.disturbance_source};
}

}  // namespace

MatrixExecutor::MatrixExecutor(const config::Config& config, const config::Plan& plan,
                               Launcher& launcher, runfile::RunTsvWriter& writer,
                               ExecutorSettings settings)
    : config_(config),
      plan_(plan),
      settings_(std::move(settings)),
      progress_(plan.fill_s > 0 ? 0 : plan.runs.size(), settings_.show_progress),
      hooks_(config, plan, launcher),
      prepare_(config, settings_.allow_drop_caches, progress_),
      launch_(config, launcher, launch_settings(settings_), progress_),
      verify_(config, progress_, settings_.stop_at_first_failure),
      disturbance_(plan, config, progress_),
      record_(plan, config, writer),
      decided_(plan, config),
      stopped_(plan.cells.size(), false),
      warmups_begun_(plan.cells.size(), 0) {
  if (settings_.duet_partner != nullptr) {
    // Its disturbance is taken by the first step's meter, over the pair's interval.
    partner_launch_.emplace(config, *settings_.duet_partner,
                            LaunchSettings{settings_.temp_folder, settings_.counters, std::nullopt},
                            progress_);
  }
}

bool MatrixExecutor::stopped() const {
  return interrupt_requested() || !record_.results_error().empty();
}

MatrixTotals MatrixExecutor::run_all() {
  for (std::size_t r = 0; r < plan_.runs.size(); ++r) {
    if (stopped()) break;
    const config::PlannedRun& run = plan_.runs[r];
    // A round ends where the next run is not a measured run of the same repeat (docs/driver.md,
    // "Disturbance"): its disturbed runs are re-run there.
    if (disturbance_.round_ends_before(run)) rerun_disturbed();
    if (stopped_[run.cell]) {
      progress_.skip();  // its command failed or mismatched: not run again (stop_at_first_failure)
    } else if (run.phase == config::RunPhase::kMeasure &&
               decided_.enough(run.cell, record_.ok_elapsed_s())) {
      ++totals_.runs_saved;  // as precise as asked, or its comparison decided
      progress_.skip();
    } else if (const auto partner = duet_partner_of(r)) {
      run_pair(r, *partner);
      at_run_boundary();
      after_hooks(r);
      r = *partner;
    } else {
      run_one(r);
      at_run_boundary();
    }
    after_hooks(r);
  }
  rerun_disturbed();
  std::vector<std::string> ending = hooks_.finish();
  std::ranges::copy(decided_.budget().cut_short(record_.ok_elapsed_s()),
                    std::back_inserter(ending));
  for (const std::string& warning : ending) progress_.warn(warning);
  collect_totals();
  progress_.finish();
  return totals_;
}

// A test's cleanup waits while any run is queued to be re-run (it may be one of the test's):
// finish() owes it then, after the re-runs.
void MatrixExecutor::after_hooks(std::size_t index) {
  if (disturbance_.waiting()) return;
  if (const std::string warning = hooks_.after_run(index); !warning.empty())
    progress_.warn(warning);
}

void MatrixExecutor::collect_totals() {
  totals_.decisions = decided_.decisions(record_.ok_elapsed_s(), &totals_.rule_decisions);
  totals_.rows_written = record_.rows_written();
  if (duet_given_up_) totals_.order_taken = "duet, then interleave";
  totals_.bad_rows = record_.bad_rows();
  totals_.results_error = record_.results_error();
  totals_.pipe_size_given_bytes = launch_.pipe_size_given_bytes();
  totals_.cache_state_warnings = record_.cache_state_warnings();
  for (const auto& ok : record_.ok_elapsed_s()) totals_.ok_runs_per_cell.push_back(ok.size());
  totals_.warnings = progress_.warnings();
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
  const auto needs_none = [this](std::size_t cell) {
    return stopped_[cell] || decided_.enough(cell, record_.ok_elapsed_s());
  };
  while (disturbance_.waiting()) {
    if (stopped()) return;
    if (const auto index = disturbance_.take_rerun(needs_none, record_.ok_elapsed_s())) {
      progress_.add_rerun();
      run_one(*index);
      at_run_boundary();
    }
  }
}

MatrixExecutor::Started MatrixExecutor::start(std::size_t index) {
  const config::PlannedRun& run = plan_.runs[index];
  const config::Cell& cell = plan_.cells[run.cell];
  Started started;
  started.test = &plan_.tests[cell.test];
  started.input = prepare_.input_path(cell.input);
  // The verification run always goes into a hashing pipe: the null sink shows nothing.
  started.sink_kind = run.phase == config::RunPhase::kVerify ? config::SinkKind::kPipe : cell.sink;
  progress_.start(fmt::format("{} · {} · {}{}", started.test->name,
                              started.input.filename().string(), to_string(started.sink_kind),
                              phase_suffix(run.phase)));
  runfile::RunRow& row = started.row;
  row.test = started.test->name;
  row.input = started.input.string();
  row.sink = std::string(to_string(started.sink_kind));
  row.repeat = run.repeat;
  row.host = settings_.host;
  started.iteration = iteration_value(run, warmups_begun_[run.cell]);
  if (run.phase == config::RunPhase::kWarmup) ++warmups_begun_[run.cell];
  return started;
}

void MatrixExecutor::run_one(std::size_t index) {
  Started run = start(index);
  double prepare_s = 0;
  if (prepared(index, run, prepare_s)) launch_alone(index, run, prepare_s);
}

void MatrixExecutor::launch_alone(std::size_t index, Started& run, double prepare_s) {
  const config::PlannedRun& planned = plan_.runs[index];
  LaunchOutcome outcome =
      launch_.launch(*run.test, run.input, run.sink_kind, run.row, run.iteration);
  if (outcome.cancelled) return;
  if (planned.phase == config::RunPhase::kVerify && run.row.status != runfile::RunStatus::kOk &&
      !stops_after(*run.test, run.row)) {
    // One retry: a verification run that fails once may have met a passing disturbance; one that
    // fails twice leaves the pair unverified.
    progress_.warn(failure_line(run.row, planned, outcome.result, outcome.stderr_capture.get()));
    outcome = launch_.launch(*run.test, run.input, run.sink_kind, run.row, run.iteration);
    if (outcome.cancelled) return;
  }
  finish_run(index, run.row, outcome, prepare_s);
  if (const std::string failure = hooks_.conclude(index, run.iteration); !failure.empty())
    progress_.warn(failure);
}

std::optional<std::size_t> MatrixExecutor::duet_partner_of(std::size_t index) {
  if (!partner_launch_ || duet_given_up_ || index + 1 >= plan_.runs.size()) return std::nullopt;
  const config::PlannedRun& first = plan_.runs[index];
  const config::PlannedRun& second = plan_.runs[index + 1];
  if (first.phase != config::RunPhase::kMeasure || second.phase != config::RunPhase::kMeasure ||
      first.repeat != second.repeat || first.cell == second.cell || stopped_[second.cell] ||
      decided_.enough(second.cell, record_.ok_elapsed_s()))
    return std::nullopt;
  return index + 1;
}

// Again while left out, as long as neither cell needs no more (decided, or its runs' budget
// spent) and the re-run budget allows. A machine whose load keeps a CPU busy disturbs every
// pair: that many in a row, and the duet is given up rather than the budget spent on it; the
// pair just left out then runs again one at a time, as the rest will.
void MatrixExecutor::run_pair(std::size_t first, std::size_t second) {
  const auto needs_none = [this](std::size_t index) {
    const std::size_t cell = plan_.runs[index].cell;
    return stopped_[cell] || decided_.enough(cell, record_.ok_elapsed_s());
  };
  while (run_pair_once(first, second)) {
    if (++duet_left_out_in_a_row_ >= kDuetLeftOutPairsToGiveUp) give_up_duet();
    if (stopped() || needs_none(first) || needs_none(second) ||
        !disturbance_.take_pair_rerun({first, second}, record_.ok_elapsed_s()))
      return;
    progress_.add_rerun();
    progress_.add_rerun();
    if (duet_given_up_) {
      run_one(first);
      run_one(second);
      return;
    }
  }
  duet_left_out_in_a_row_ = 0;
}

void MatrixExecutor::give_up_duet() {
  duet_given_up_ = true;
  progress_.warn(fmt::format(
      "order {}: {} pairs in a row were left out as disturbed, so two CPUs are not free for a "
      "duet: the rest run one at a time, interleaved (docs/bench.md, \"Duet\")",
      to_string(config_.order), duet_left_out_in_a_row_));
}

bool MatrixExecutor::run_pair_once(std::size_t first, std::size_t second) {
  Started a = start(first);
  double prepare_a_s = 0;
  if (!prepared(first, a, prepare_a_s)) {
    run_one(second);
    return false;
  }
  Started b = start(second);
  double prepare_b_s = 0;
  if (!prepared(second, b, prepare_b_s)) {
    launch_alone(first, a, prepare_a_s);
    return false;
  }
  const std::array<LaunchOutcome, 2> outcomes = launch_.launch_duet(
      *partner_launch_, {*a.test, a.input, a.sink_kind, a.row, settings_.duet_cpus[0], a.iteration},
      {*b.test, b.input, b.sink_kind, b.row, settings_.duet_cpus[1], b.iteration});
  if (outcomes[0].cancelled || outcomes[1].cancelled) return false;
  // Both measured runs (their failures said, their outputs checked), judged together, recorded.
  checked(first, a.row, outcomes[0]);
  checked(second, b.row, outcomes[1]);
  const bool left_out = disturbance_.judge_pair({first, second}, {&a.row, &b.row},
                                                {outcomes[0].disturbance, outcomes[1].disturbance});
  record_measured(first, a.row, prepare_a_s);
  if (const std::string failure = hooks_.conclude(first, a.iteration); !failure.empty())
    progress_.warn(failure);
  record_measured(second, b.row, prepare_b_s);
  if (const std::string failure = hooks_.conclude(second, b.iteration); !failure.empty())
    progress_.warn(failure);
  return left_out;
}

bool MatrixExecutor::prepared(std::size_t index, Started& started, double& prepare_s) {
  const config::PlannedRun& run = plan_.runs[index];
  const config::Cell& cell = plan_.cells[run.cell];
  runfile::RunRow& row = started.row;
  if (const PrepareStep::Check check = prepare_.prepare(cell.input, row); !check.ready) {
    if (run.phase == config::RunPhase::kVerify && !check.read_error.empty())
      verify_.unverifiable(cell, plan_.tests[cell.test], row.input, check.read_error);
    if (run.phase == config::RunPhase::kMeasure) {
      row.status = runfile::RunStatus::kError;
      record_.record(row);
    }
    return false;
  }
  return !hooks_.any() || run_hooks_before(index, started, prepare_s);
}

// After the cache step, so a cold cache's eviction comes first (docs/bench.md); what they did to
// the input's cache state is measured again. A failed hook stops the run: an error row when it is
// measured, an unverified pair at verification.
bool MatrixExecutor::run_hooks_before(std::size_t index, Started& started, double& prepare_s) {
  const RunHooks::Before before = hooks_.before_run(index, started.iteration);
  runfile::RunRow& row = started.row;
  prepare_s = before.prepare_s;
  const config::PlannedRun& run = plan_.runs[index];
  const config::Cell& cell = plan_.cells[run.cell];
  if (before.failure.empty()) {
    if (before.ran) prepare_.measure_cache_again(cell.input, row);
    return true;
  }
  if (interrupt_requested()) return false;
  if (before.first_failure) progress_.warn(before.failure);
  if (run.phase == config::RunPhase::kVerify)
    verify_.unverifiable(cell, plan_.tests[cell.test], row.input, before.failure);
  if (run.phase == config::RunPhase::kMeasure) {
    row.status = runfile::RunStatus::kError;
    record_.record(row);
  }
  return false;
}

void MatrixExecutor::finish_run(std::size_t index, runfile::RunRow& row,
                                const LaunchOutcome& outcome, double prepare_s) {
  if (!checked(index, row, outcome)) return;
  disturbance_.judge(index, row, outcome.disturbance);
  record_measured(index, row, prepare_s);
}

void MatrixExecutor::record_measured(std::size_t index, const runfile::RunRow& row,
                                     double prepare_s) {
  const std::size_t cell = plan_.runs[index].cell;
  if (record_.record_measured(cell, row)) decided_.budget().add_to_first_run(cell, prepare_s);
}

bool MatrixExecutor::checked(std::size_t index, runfile::RunRow& row,
                             const LaunchOutcome& outcome) {
  const config::PlannedRun& run = plan_.runs[index];
  const config::Cell& cell = plan_.cells[run.cell];
  const config::Test& test = plan_.tests[cell.test];
  const int stderr_fd = outcome.stderr_capture.get();
  const bool stop = stops_after(test, row);
  if (stop) {
    progress_.warn(fmt::format("{}; {} (-i/--ignore-failure times it anyway)",
                               failure_line(row, run, outcome.result, stderr_fd), kNotRunAgain));
    stop_pair(cell);
  } else if (row.status != runfile::RunStatus::kOk) {
    progress_.warn(failure_line(row, run, outcome.result, stderr_fd));
  } else {
    launch_.warn_stderr_of_ok_run(cell.test, test, outcome);
  }

  // A command stopped at its first run (the verification or a warmup run) keeps that run's row,
  // so it stays on every surface with no ok run instead of vanishing (docs/bench.md, "A failing
  // command").
  if (stop && run.phase != config::RunPhase::kMeasure) record_.record(row);
  switch (run.phase) {
    case config::RunPhase::kVerify:
      if (!stop && verify_.check_verification_run(cell, test, row, outcome)) {
        stop_pair(cell);
        // Mismatched at its first run: its row, so marked, keeps it on every surface and gives
        // the history its series ("nothing counts", never unseen and passed).
        row.status = runfile::RunStatus::kMismatch;
        record_.record(row);
      }
      return false;
    case config::RunPhase::kWarmup:
      return false;
    case config::RunPhase::kMeasure:
      if (verify_.check_measured_run(cell, test, row, outcome.output)) stop_pair(cell);
      return true;
  }
  return false;
}

bool MatrixExecutor::stops_after(const config::Test& test, const runfile::RunRow& row) const {
  return settings_.stop_at_first_failure && command_failed(row) &&
         !config_.strategies[test.strategy].ignore_failure.covers(row.exit_code.value_or(-1));
}

// Every cell of the pair: its sinks run the same command on the same input.
void MatrixExecutor::stop_pair(const config::Cell& cell) {
  bool stopped_now = false;
  for (std::size_t c = 0; c < plan_.cells.size(); ++c) {
    if (plan_.cells[c].test == cell.test && plan_.cells[c].input == cell.input && !stopped_[c]) {
      stopped_[c] = true;
      stopped_now = true;
    }
  }
  if (stopped_now) ++totals_.stopped_pairs;
}

}  // namespace iobench::run
