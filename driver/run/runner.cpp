#include "driver/run/runner.hpp"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "common/error.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/two_levels_warnings.hpp"
#include "driver/run/cell_label.hpp"
#include "driver/run/counter_plan.hpp"
#include "driver/run/data_dir.hpp"
#include "driver/run/dry_run.hpp"
#include "driver/run/duet.hpp"
#include "driver/run/executor.hpp"
#include "driver/run/interrupt.hpp"
#include "driver/run/machine_context.hpp"
#include "driver/run/machine_load.hpp"
#include "driver/run/outputs.hpp"
#include "driver/run/pre_run.hpp"
#include "driver/run/provenance.hpp"
#include "driver/run/shard.hpp"
#include "driver/run/task_exits.hpp"
#include "driver/run/worker_catalog.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/writer.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench::run {
namespace {

const char* lookup_env(const char* name) {
  return std::getenv(name);
}

// The plan of this task's share of the matrix, and the matrix block that describes the whole.
struct CheckedPlan {
  config::PlanOptions options;
  ShardChoice shard;
  config::Plan plan;
  runfile::Matrix matrix;
};

// Everything that can be wrong with the config is found here, before anything is written.
CheckedPlan plan_and_check(const config::Config& config, const RunOptions& options) {
  config::PlanOptions plan_options;
  plan_options.worker_path = find_worker().string();
  plan_options.filter_regex = options.filter_regex;
  plan_options.repeats_override = options.repeats_override;
  plan_options.build_dir = options.build_dir;
  plan_options.versus_dir = options.versus_dir;
  const ShardChoice shard = resolve_shard(options.shard, lookup_env);
  plan_options.shard_index = shard.index;
  plan_options.shard_count = shard.count;
  config::Plan plan = config::build_plan(config, plan_options);
  config::PlanOptions whole_matrix = plan_options;
  whole_matrix.shard_index = 0;
  whole_matrix.shard_count = 1;
  // The matrix block hashes the whole expanded config as JSON: --dry-run writes no record, and
  // at 100,000 cells that costs more than the plan (docs/driver.md, "Order, failures, ...").
  runfile::Matrix matrix;
  if (!options.dry_run) {
    matrix = describe_matrix(
        config, shard.count > 1 ? config::build_plan(config, whole_matrix) : plan, shard);
  }
  check_worker_strategies(config, plan);
  check_inputs_exist(config);
  check_machine_settings(config, plan);
  return {std::move(plan_options), shard, std::move(plan), std::move(matrix)};
}

// The record written before the first run (docs/formats.md "Meta file").
runfile::RunMeta record_at_start(const config::Config& config, const RunOptions& options,
                                 const CheckedPlan& planned, const OutputPaths& paths,
                                 const MachineLoad& load, const CountingPlan& counting,
                                 const std::string& wait_scope) {
  runfile::RunMeta meta;
  meta.runs_file = paths.runs.string();
  meta.medians_file = paths.medians.string();
  meta.context = collect_machine_context();
  const config::Plan& plan = planned.plan;
  meta.options = runfile::RunSettings{options.filter_regex,
                                      plan.repeats,
                                      plan.repeats_min,
                                      plan.ci_pct,
                                      planned.matrix.shard,
                                      std::string(to_string(config.order)),
                                      config.seed,
                                      planned.options.worker_path,
                                      plan.fill_s > 0 ? std::optional(plan.fill_s) : std::nullopt,
                                      std::string(to_string(config.disturbance)),
                                      config.disturbance_threshold_cpus,
                                      wait_scope};
  meta.host = host_name();
  meta.matrix = planned.matrix;
  meta.config_file = config.file.string();
  meta.config = config.as_written.tree();
  meta.provenance = collect_provenance(config, plan, planned.options.worker_path, load);
  meta.drop_caches_available = ::geteuid() == 0 && ::access("/proc/sys/vm/drop_caches", W_OK) == 0;
  meta.schedule = plan_schedule(config, plan);
  if (!counting.requested.empty()) meta.counters = counter_availability(counting);
  meta.shell_startup = options.shell_startup;
  return meta;
}

// What the end of the runs adds to the record.
void record_end(runfile::RunMeta& meta, const MatrixTotals& totals, const MachineLoad& load,
                bool finished) {
  meta.end = runfile::RunEnd{finished,
                             totals.runs_saved,
                             totals.pipe_size_given_bytes,
                             totals.cache_state_warnings,
                             totals.warnings,
                             {},
                             totals.order_taken};
  meta.rows = totals.rows_written;
  meta.provenance->busy_cpus_start = load.busy_cpus;
  meta.provenance->load_average_end = load_average_1min();
}

// Cells whose ok runs fell into two levels (docs/reports.md, "Two levels"): a handful printed,
// every one kept in the record. Rows that cannot be parsed are the medians report's to say (it
// parses the same text next).
void warn_two_levels(const OutputPaths& paths, const std::string& runs_text, MatrixTotals& totals) {
  constexpr std::size_t kCellsNamed = 5;
  try {
    const std::vector<std::string> lines =
        report::two_level_warnings(runs_text, paths.runs.string());
    for (const auto& line : report::name_a_few(lines, kCellsNamed, paths.meta.string()))
      fmt::print(stderr, "iobench: warning: {}\n", line);
    totals.warnings.insert(totals.warnings.end(), lines.begin(), lines.end());
  } catch (const Error&) {
    // Said by the medians report, which reads the same file next.
  }
}

// From here on runs have started: a failure of iobench itself exits 3, keeping every row.
MatrixTotals execute(const config::Config& config, const config::Plan& plan,
                     const OutputPaths& paths, const RunOptions& options,
                     const CountingPlan& counting, runfile::RunTsvWriter& writer,
                     BusyWindow& busy_window, const WaitSource& wait_source) {
  const PrivateFolder temp_folder(paths.folder);
  SpawnerLauncher launcher(spawn::Spawner::global());
  std::string duet_warning;
  const std::unique_ptr<DuetPartner> duet = DuetPartner::for_config(config, duet_warning);
  if (!duet_warning.empty()) fmt::print(stderr, "iobench: warning: {}\n", duet_warning);
  const CancelOnInterrupt cancel_on_interrupt(launcher, duet ? &duet->launcher() : nullptr);
  ExecutorSettings settings;
  if (duet) {
    settings.duet_partner = &duet->launcher();
    settings.duet_cpus = duet->cpus();
  }
  settings.temp_folder = temp_folder.path();
  settings.show_progress = !options.quiet && ::isatty(STDERR_FILENO) != 0;
  settings.allow_drop_caches = ::geteuid() == 0;
  settings.host = host_name();
  settings.counters = counting.counted;
  settings.disturbance_source = real_proc_source(spawn::Spawner::global().pid());
  if (const auto listener = wait_source.listener) {
    settings.disturbance_source->task_exits = [listener] { return listener->take(); };
    settings.disturbance_source->block_io_accounted = listener->block_io_accounted();
  }
  settings.stop_at_first_failure = options.stop_at_first_failure;
  settings.after_run = [&busy_window] {
    return busy_window.at_run_boundary() ? busy_warning(busy_window.load()) : std::string();
  };
  MatrixExecutor executor(config, plan, launcher, writer, settings);
  MatrixTotals totals = executor.run_all();
  if (!duet_warning.empty()) totals.warnings.insert(totals.warnings.begin(), duet_warning);
  for (const auto& decision : totals.decisions) fmt::print(stderr, "iobench: {}\n", decision);
  if (!busy_window.closed()) {
    // The runs ended within the window (or none ran): the rest of it is waited out.
    busy_window.close_after_runs(interrupt_requested);
    if (const auto warning = busy_warning(busy_window.load()); !warning.empty()) {
      fmt::print(stderr, "iobench: warning: {}\n", warning);
      totals.warnings.push_back(warning);
    }
  }
  warn_two_levels(paths, writer.text(), totals);
  return totals;
}

// The cells with measured runs planned of which none ended ok, "'TEST' on INPUT (SINK sink)".
std::vector<std::string> cells_without_ok_run(const config::Config& config,
                                              const config::Plan& plan,
                                              const MatrixTotals& totals) {
  std::vector<bool> measured(plan.cells.size(), false);
  for (const config::PlannedRun& run : plan.runs) {
    if (run.phase == config::RunPhase::kMeasure) measured[run.cell] = true;
  }
  std::vector<std::string> cells;
  for (std::size_t c = 0; c < plan.cells.size() && c < totals.ok_runs_per_cell.size(); ++c) {
    if (!measured[c] || totals.ok_runs_per_cell[c] > 0) continue;
    cells.push_back(cell_label(plan, config, c));
  }
  return cells;
}

// The exit code from how the runs ended (docs/formats.md "Exit codes").
int report_end(const MatrixTotals& totals, const OutputPaths& paths, const std::string& failure,
               bool interrupted, const std::vector<std::string>& empty_cells, bool temporary) {
  if (!failure.empty()) {
    fmt::print(stderr, "iobench: {}; stopped after {} rows{}\n", failure, totals.rows_written,
               temporary ? " (in a temporary folder; -o FILE keeps them)"
                         : ", every one kept in " + paths.runs.string());
    return kExitCouldNotContinue;
  }
  if (!temporary) {
    fmt::print(stderr, "iobench: {} rows in {}{}\n", totals.rows_written, paths.runs.string(),
               interrupted ? " (interrupted; every finished run is kept)" : "");
  }
  if (interrupted) return kExitInterrupted;
  if (totals.bad_rows > 0) {
    fmt::print(stderr, "iobench: {} of {} runs did not end ok{}\n", totals.bad_rows,
               totals.rows_written, temporary ? "" : " (see the status column)");
  }
  // A command stopped before any measured run has no row, and failed all the same.
  const bool failed = totals.bad_rows > 0 || totals.stopped_pairs > 0;
  // A cell whose every run was disturbed has no failed row, but nothing was measured there.
  if (!empty_cells.empty() && !failed) {
    constexpr std::size_t kNamed = 3;
    const std::vector<std::string> named(
        empty_cells.begin(),
        empty_cells.begin() + static_cast<std::ptrdiff_t>(std::min(empty_cells.size(), kNamed)));
    fmt::print(stderr, "iobench: {} cell{} without an ok run (every run disturbed): {}{}\n",
               empty_cells.size(), empty_cells.size() == 1 ? "" : "s", fmt::join(named, ", "),
               empty_cells.size() > kNamed
                   ? fmt::format(" and {} more", empty_cells.size() - kNamed)
                   : "");
  }
  return failed || !empty_cells.empty() ? kExitRunFailed : kExitOk;
}

}  // namespace

config::Config load_run_config(const RunOptions& options) {
  config::Config config = config::load_config(options.config_path);
  if (const auto data_dir = choose_data_dir(options.data_dir, config.file, lookup_env)) {
    config::set_data_dir(config, *data_dir);
  }
  return config;
}

RunResult run_experiment(const RunOptions& options) {
  return run_config(load_run_config(options), options);
}

RunResult run_config(const config::Config& config, const RunOptions& options) {
  const CheckedPlan planned = plan_and_check(config, options);
  if (options.dry_run) {
    print_plan(config, planned.plan);
    return {};
  }
  const ShardChoice& shard = planned.shard;
  const OutputPaths paths = choose_outputs(
      options.output, config.name,
      shard.count > 1 ? fmt::format("-shard-{}-of-{}", shard.index + 1, shard.count) : "");
  const InterruptGuard interrupt_guard;  // before the history store is opened, or anything written
  if (options.before_writing) options.before_writing(config, paths.runs);
  // Opened before iobench loads the machine itself (input generation, the runs), whose CPU time
  // it leaves out; it closes as the first runs end, so the runs do not wait for it.
  BusyWindow busy_window(real_proc_source(spawn::Spawner::global().pid()));
  if (is_unoptimized_build()) {
    fmt::print(stderr, "iobench: warning: this is a {} build; its timings are not representative\n",
               build_info());
  }
  prepare_inputs(config, options.quiet);
  // Made as their first files are, after the inputs: Ctrl-C during a generation left them empty.
  make_output_folders(paths);
  runfile::RunTsvWriter writer(paths.runs, config.counters);
  const CountingPlan counting = plan_counting(config.counters);
  if (const auto warning = counting_warning(counting); !warning.empty())
    fmt::print(stderr, "iobench: warning: {}\n", warning);
  const WaitSource wait_source = open_wait_source();
  runfile::RunMeta meta = record_at_start(config, options, planned, paths, busy_window.load(),
                                          counting, wait_source.scope);
  runfile::write_meta(paths.meta, meta);

  const MatrixTotals totals =
      execute(config, planned.plan, paths, options, counting, writer, busy_window, wait_source);
  const bool interrupted = interrupt_requested();
  std::string failure = totals.results_error;
  record_end(meta, totals, busy_window.load(), !interrupted && failure.empty());
  RunResult result;
  result.rule_decisions = totals.rule_decisions;
  runfile::WrittenRun& written = result.written.emplace();
  written.runs_file = paths.runs;
  written.text = writer.take_text();
  runfile::RunMeta& record = written.meta.emplace(std::move(meta));
  try {
    runfile::write_meta(paths.meta, record);
    if (totals.rows_written > 0 && failure.empty()) {
      std::ostream no_table(nullptr);  // discards: the caller prints the runs its own way
      // The printed warnings name a few groups; the record keeps every one (docs/reports.md).
      record.end->summary_warnings = report::write_medians_report(
          {paths.runs, paths.medians, config.baseline, paths.meta, options.table_top_rows},
          runfile::group_written_run(written, report::medians_grouping()),
          options.print_table ? std::cout : no_table,
          options.print_summary_warnings ? std::cerr : no_table);
      if (!record.end->summary_warnings.empty()) runfile::write_meta(paths.meta, record);
    }
  } catch (const Error& e) {
    if (failure.empty()) failure = e.what();
  }
  result.exit_code = report_end(totals, paths, failure, interrupted,
                                cells_without_ok_run(config, planned.plan, totals),
                                options.runs_file_is_temporary);
  return result;
}

}  // namespace iobench::run
