#pragma once
// The run loop of `iobench run`: executes a plan run by run through a Launcher (the spawner, or a
// fake in tests): checks the input, prepares the page cache, runs the worker into its sink,
// verifies the output and appends the measured run's row.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"
#include "driver/report/precision.hpp"
#include "driver/run/bench_hooks.hpp"
#include "driver/run/decided_comparisons.hpp"
#include "driver/run/disturbance.hpp"
#include "driver/run/launcher.hpp"
#include "driver/run/progress.hpp"
#include "driver/run/sink.hpp"
#include "driver/run/stray_watch.hpp"
#include "driver/run/verifier.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench {

struct ExecutorSettings {
  std::filesystem::path temp_folder;  // private folder for file sinks
  bool show_progress = false;
  bool allow_drop_caches = false;
  std::string host;
  std::vector<std::string> counters;  // what each run asks the spawner to count (countable ones)
  // Called at each run boundary: the run's workers reaped, their results back, its row (if any)
  // written. What it returns, if not empty, is printed as a warning above the progress line.
  std::function<std::string()> after_run;
  // Where each measured run's disturbance is read (docs/driver.md, "Disturbance"); empty: not
  // measured, the columns stay empty and no run is judged disturbed.
  std::optional<ProcSource> disturbance_source;
  // `iobench bench`, as hyperfine: a command whose run fails (a non-zero exit, a signal or a
  // timeout, without ignore_failure) or writes other bytes than its reference (verification on)
  // is said so in one line and not run again, on that input (docs/bench.md).
  bool stop_at_first_failure = false;
};

struct MatrixTotals {
  std::size_t rows_written = 0;
  std::size_t bad_rows = 0;
  // Set when a row could not be written (results disk full): the loop stopped there, every row
  // before it is in the file, and the run exits 3.
  std::string results_error;
  // Measured runs left out because their cell had reached its precision target (config
  // "repeats": {"ci_pct": ...}).
  std::size_t runs_saved = 0;
  // The pipe sinks' capacity as the kernel gave it (F_GETPIPE_SZ); empty without a pipe sink.
  std::optional<std::uint64_t> pipe_size_given_bytes;
  // One line per test whose ok measured rows were not in the cache state the config asked for
  // (report::cache_state_warning), for the meta file; not printed (the summary warns).
  std::vector<std::string> cache_state_warnings;
  // Every warning printed during the runs, in order (those above among them).
  std::vector<std::string> warnings;
  // With config "decide": how each test's comparison with the baseline ended, one line each
  // (DecidedComparisons::decisions).
  std::vector<std::string> decisions;
  std::vector<report::RuleDecision> rule_decisions;  // the same, for bench's verdicts
  std::vector<std::size_t> ok_runs_per_cell;         // the plan's cells' measured ok runs
  // With stop_at_first_failure: the (test, input) pairs stopped by a failure or a mismatch.
  std::size_t stopped_pairs = 0;
};

class MatrixExecutor {
 public:
  MatrixExecutor(const Config& config, const Plan& plan, Launcher& launcher, RunTsvWriter& writer,
                 ExecutorSettings settings);
  // Runs until the plan is done, an interrupt arrives (interrupt_requested()), or a row cannot
  // be written.
  MatrixTotals run_all();

 private:
  struct InputState {
    std::filesystem::path path;
    std::optional<std::uint64_t> size_bytes;
    bool size_change_reported = false;
    bool missing_reported = false;
    bool read_error_reported = false;
  };
  struct Outcome {
    SpawnResult result;
    SinkResult output;
    std::optional<RunDisturbance> disturbance;
    bool cancelled = false;
  };

  // What a stopped command's line ends with (stop_at_first_failure).
  static constexpr const char* kNotRunAgain = "it is not run again";
  static constexpr const char* kNotRunAgainVerifyOff =
      "it is not run again (--verify off times it anyway)";

  // True when it wrote a measured row that others disturbed.
  bool run_one(std::size_t index);
  // The test's setup and prepare before run `index`; false when a hook failed (the run is then
  // recorded as it must be) or an interrupt came.
  bool run_hooks_before(std::size_t index, const Cell& cell, const Test& test,
                        const InputState& input, RunRow& row);
  void at_run_boundary();
  void rerun_disturbed();
  Outcome launch(const Test& test, const InputState& input, SinkKind sink_kind, int stderr_fd);
  bool input_ready(const PlannedRun& run, InputState& input, RunRow& row);
  bool input_still_there(InputState& input);
  std::optional<double> prepare_cache(const std::filesystem::path& path) const;
  // After the run's figures are in `row`: says a failure, verifies, records a measured row.
  // True when it wrote a measured row that others disturbed.
  bool finish_run(std::size_t index, RunRow& row, const Outcome& outcome, int stderr_fd);
  [[nodiscard]] std::string failure_line(const RunRow& row, const PlannedRun& run,
                                         const SpawnResult& result, int stderr_fd) const;
  void warn_failure(const RunRow& row, const PlannedRun& run, const SpawnResult& result,
                    int stderr_fd);
  // stop_at_first_failure and a failure the test does not ignore (executor_stop.cpp).
  [[nodiscard]] bool stops_after(const Test& test, const RunRow& row) const;
  void stop_pair(const Cell& cell);
  std::optional<ExpectedOutput> independent_reference(const std::string& output_class,
                                                      std::size_t input);
  void record(const RunRow& row);
  void note_cache_state(std::size_t test, const RunRow& row);
  void collect_cache_state_warnings();

  const Config& config_;
  const Plan& plan_;
  Launcher& launcher_;
  RunTsvWriter& writer_;
  ExecutorSettings settings_;
  StrayWatch strays_;
  Progress progress_;
  SinkSettings sink_settings_;
  std::vector<InputState> inputs_;
  Verifier verifier_;
  std::set<std::size_t> stderr_warned_tests_;
  RunHooks hooks_;
  std::map<std::size_t, CacheCheck> cache_checks_;  // per test
  MatrixTotals totals_;
  std::vector<std::vector<double>> ok_elapsed_s_;  // per cell: the elapsed time of its ok rows
  DecidedComparisons decided_;                     // which cells need no further run
  std::optional<DisturbanceMeter> disturbance_meter_;
  DisturbedRuns disturbed_runs_;
  std::vector<bool> stopped_;  // per cell: stopped at its pair's first failure or mismatch
  double prepare_s_ = 0;       // the current run's prepare command's time (bench --prepare)
};

}  // namespace iobench
