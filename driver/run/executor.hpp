#pragma once
// The run loop of `iobench run`: executes a plan run by run through a Launcher (the spawner, or a
// fake in tests): checks the input, prepares the page cache, runs the worker into its sink,
// verifies the output and appends the measured run's row.
#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"
#include "driver/run/decided_comparisons.hpp"
#include "driver/run/disturbance.hpp"
#include "driver/run/disturbance_step.hpp"
#include "driver/run/hooks.hpp"
#include "driver/run/launch_step.hpp"
#include "driver/run/launcher.hpp"
#include "driver/run/prepare_step.hpp"
#include "driver/run/progress.hpp"
#include "driver/run/record_step.hpp"
#include "driver/run/verify_step.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/runfile/writer.hpp"
#include "driver/stats/precision.hpp"

namespace iobench::run {

// A duet's pairs left out as disturbed in a row before it is given up: beside one steady busy
// loop on two CPUs every pair is (docs/bench.md, "Duet"); on this 2-CPU machine, quiet, a copy
// into a pipe had 4-20 % of its pairs left out, at most 5 in a row in 14 benches of 130-190 pairs.
inline constexpr std::size_t kDuetLeftOutPairsToGiveUp = 10;

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
  // Config order `duet`: a second launcher (a spawner of its own) and the two CPUs a pair's runs
  // are pinned to, the first of a pair on the first (docs/bench.md, "Duet"). None: one at a time.
  Launcher* duet_partner = nullptr;
  std::array<int, 2> duet_cpus{0, 1};
};

struct MatrixTotals {
  std::size_t rows_written = 0;
  // Where the measured runs' order differs from the config's (RunEnd::order_taken); else empty.
  std::string order_taken;
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

// Composes the steps of a run (prepare, launch, verify, judge disturbance, record; each its own
// type, docs/driver.md, "The run loop") and keeps the loop: which run comes next, which cells
// need no more, the disturbed runs' re-runs at the end of a round, bench's stop at a command's
// first failure.
class MatrixExecutor {
 public:
  MatrixExecutor(const config::Config& config, const config::Plan& plan, Launcher& launcher,
                 runfile::RunTsvWriter& writer, ExecutorSettings settings);
  // Runs until the plan is done, an interrupt arrives (interrupt_requested()), or a row cannot
  // be written.
  MatrixTotals run_all();

 private:
  // A run about to start: its test, input, sink and the row its figures go into.
  struct Started {
    const config::Test* test = nullptr;
    std::filesystem::path input;
    config::SinkKind sink_kind = config::SinkKind::kNull;
    runfile::RunRow row;
    std::string iteration;  // its HYPERFINE_ITERATION (iteration.hpp)
  };
  Started start(std::size_t index);
  void run_one(std::size_t index);
  // Launched alone, once prepared (its verification run retried once).
  void launch_alone(std::size_t index, Started& run, double prepare_s);
  // The next measured run of the same round, to go at the same moment as `index` (a duet).
  [[nodiscard]] std::optional<std::size_t> duet_partner_of(std::size_t index);
  // Both of a duet's pair at once, and again (within the budget) while the pair is left out;
  // after kDuetLeftOutPairsToGiveUp pairs in a row left out, the duet is given up.
  void run_pair(std::size_t first, std::size_t second);
  // Said once: the rest runs one at a time, interleaved.
  void give_up_duet();
  // One attempt of the pair: true when it was left out as disturbed.
  bool run_pair_once(std::size_t first, std::size_t second);
  void after_hooks(std::size_t index);
  // The input ready and the test's setup and prepare run before run `index`; false when the run
  // cannot go on (its row recorded as it must be) or an interrupt came. `prepare_s`: the
  // prepare command's time (bench --prepare).
  bool prepared(std::size_t index, Started& started, double& prepare_s);
  bool run_hooks_before(std::size_t index, Started& started, double& prepare_s);
  void at_run_boundary();
  void rerun_disturbed();
  [[nodiscard]] bool stopped() const;  // an interrupt, or a row that could not be written
  // After the run's figures are in `row`: says a failure, verifies, records a measured row.
  void finish_run(std::size_t index, runfile::RunRow& row, const LaunchOutcome& outcome,
                  double prepare_s);
  // finish_run's first half: says a failure, verifies; true for a measured run, whose
  // disturbance is then judged and its row recorded (record_measured).
  bool checked(std::size_t index, runfile::RunRow& row, const LaunchOutcome& outcome);
  void record_measured(std::size_t index, const runfile::RunRow& row, double prepare_s);
  // stop_at_first_failure and a failure the test does not ignore.
  [[nodiscard]] bool stops_after(const config::Test& test, const runfile::RunRow& row) const;
  void stop_pair(const config::Cell& cell);
  void collect_totals();

  const config::Config& config_;
  const config::Plan& plan_;
  ExecutorSettings settings_;
  Progress progress_;
  RunHooks hooks_;
  PrepareStep prepare_;
  LaunchStep launch_;
  std::optional<LaunchStep> partner_launch_;  // a duet's second run goes through it
  std::size_t duet_left_out_in_a_row_ = 0;    // pairs left out as disturbed since the last kept
  bool duet_given_up_ = false;
  VerifyStep verify_;
  DisturbanceStep disturbance_;
  RecordStep record_;
  DecidedComparisons decided_;      // which cells need no further run
  std::vector<bool> stopped_;       // per cell: stopped at its pair's first failure or mismatch
  std::vector<int> warmups_begun_;  // per cell: its warmups started so far
  MatrixTotals totals_;
};

}  // namespace iobench::run
