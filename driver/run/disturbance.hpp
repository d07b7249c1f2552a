#pragma once
// What each measured run suffered, and what the rest of the machine did meanwhile (docs/driver.md,
// "Disturbance"). The judge is the run's own: the time its process tree was runnable but waited
// for a CPU (every task's exit report where the kernel gives them, ProcSource::task_exits; the
// worker process' own run_delay otherwise, from the spawner), and its share of the steal time
// from /proc/stat. The context: every other task's CPU time (the root cpuacct group, to the
// nanosecond; /proc/stat's busy ticks where it cannot be read) between just before the worker is
// spawned and just after it is reaped, less iobench's own (the driver's threads and the spawner
// from ProcSource::harness_cpu_s, the measured tree exactly from its wait4). A few reads a run;
// the tests' fake ProcSource and launcher results say what happened.
#include <sys/resource.h>

#include <cstddef>
#include <deque>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/run/machine_load.hpp"
#include "driver/run/task_exits.hpp"
#include "driver/spawn/spawner.hpp"

namespace iobench::run {

// Whose wait for a CPU wait_cpu_s counts.
enum class WaitScope { kNone, kWorker, kTree };

struct RunDisturbance {
  double others_cpu_s = 0;  // context: other processes' CPU time, clamped at 0
  double steal_s = 0;       // time a hypervisor gave to other guests, all CPUs together
  double resolution_s = 0;  // how far others_cpu_s and steal_s may be off
  int cpus = 1;             // the machine's, among which the steal is shared
  // The judge: the measured tree's wait for a CPU (kTree), or the worker process' own (kWorker);
  // empty (kNone) when neither could be read.
  std::optional<double> wait_cpu_s;
  WaitScope wait_scope = WaitScope::kNone;
  std::optional<double> block_io_wait_s;  // context, where the kernel accounts it
  int tasks = 1;                          // the tasks whose wait wait_cpu_s sums
  bool others_measured = false;           // others_cpu_s was read (else it bounds nothing)
};

// /proc/stat counts in clock ticks, each field rounded down on its own, and the kernel charges a
// whole tick to what it finds running: a figure taken from it may be off by two ticks.
double ticks_resolution_s(long ticks_per_s);
// The exact figure's resolution: the root cpuacct group is charged when the scheduler updates a
// running task, at the latest at its next timer tick, so a sample may miss up to a tick (4 ms at
// the common 250 Hz) of what another CPU runs at the time (docs/driver.md, "Disturbance").
inline constexpr double kExactResolution_s = 0.004;

// The arithmetic on two /proc/stat samples. `own_cpu_s`: iobench's CPU time between them (harness
// and measured tree). /proc/stat counts in whole clock ticks sampled by the kernel while rusage is
// exact, so own time may exceed the ticks it fell in: others' time is clamped at 0. Empty when the
// samples go backwards (another boot's counters, a wrapped field). `machine_cpu_s`, when both
// samples have it: every task's CPU time at each sample, exact, and then others come from it and
// only the steal from the ticks.
std::optional<RunDisturbance> disturbance_between(
    const ProcStatTicks& before, const ProcStatTicks& after, double own_cpu_s, long ticks_per_s,
    std::optional<std::pair<double, double>> machine_cpu_s = std::nullopt);

// Below this much waiting a run is never disturbed: the figure's resolution. run_delay is read
// from per-CPU scheduler clocks, which a VM whose sched_clock is not stable (tsc=unstable, as
// here) keeps within a tick of each other: a task woken onto another CPU can be charged up to a
// tick (4 ms at 250 Hz) that it never waited. Measured on quiet runs here: 76 of 3,563 said over
// 4 ms, 18 over 5 ms, though their elapsed less their CPU time was 0.2 ms (docs/driver.md,
// "Disturbance").
inline constexpr double kWaitFloor_s = 0.004;

// What the run suffered from others, in seconds: its wait for a CPU, as far as others ran
// meanwhile, and its share of the steal (steal over the run divided among the CPUs). Its tasks also
// wait for each other (a pipeline of three on two CPUs) and for iobench's own threads; others can
// have kept them waiting at most as long as others ran, once for each of its tasks waiting at once.
double suffered_s(const RunDisturbance& disturbance);

// What the rule allows a run of elapsed_s to suffer: threshold_cpus of a CPU over its elapsed
// time, plus kWaitFloor_s, plus the steal figure's resolution when there was steal.
double allowed_s(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus);

// The rule: the run suffered more than `threshold_cpus` of a CPU over its elapsed time (on
// average, that many of its tasks were kept from running), by more than kWaitFloor_s and the
// steal's resolution. Never when nothing it suffered was measured.
bool is_disturbed(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus);

// Milliseconds for the lines that say why: two decimals under 10 ms, decimals_from_10ms above.
std::string milliseconds_text(double seconds, int decimals_from_10ms);

// "waited 2.1 ms of its 9.0 ms for a CPU" (the tree's, or "the worker waited" for its own), with
// the steal when there was some: the figure that condemns a run, as every message says it.
std::string suffered_phrase(const RunDisturbance& disturbance, double elapsed_s);

// Puts the figures into a measured row, whatever the mode; marks an ok row disturbed when the
// config's mode is not `off` and is_disturbed says so, or is_burst (burst.hpp) against the
// session's calm level `calm_cpus`. True when it marked it.
bool judge_disturbance(runfile::RunRow& row, const RunDisturbance& disturbance,
                       const config::Config& config,
                       std::optional<double> calm_cpus = std::nullopt);

// Takes the samples around each run through a ProcSource.
class DisturbanceMeter {
 public:
  explicit DisturbanceMeter(ProcSource source) : source_(std::move(source)) {}

  // Just before the worker is spawned.
  void before_run();
  // Just after it is reaped, with its result (the measured tree's wait4 rusage, the worker's pid
  // and own wait): the disturbance since before_run, or empty when nothing could be read.
  std::optional<RunDisturbance> after_run(const spawn::SpawnResult& result);
  // The same for runs that went at once since before_run (a duet): one each, in their order.
  std::vector<std::optional<RunDisturbance>> after_runs(
      std::span<const spawn::SpawnResult> results);

 private:
  struct Sample {
    std::optional<ProcStatTicks> stat;
    std::optional<double> harness_cpu_s;
    std::optional<double> machine_cpu_s;
  };
  Sample sample() const;

  ProcSource source_;
  Sample before_;
};

// The bookkeeping of `disturbance: rerun`: the disturbed runs waiting for the end of their round,
// and each cell's re-run budget (twice the repeats: enough for a burst to pass, bounded when the
// machine stays busy). Run indices are the plan's; the caller runs them.
class DisturbedRuns {
 public:
  DisturbedRuns(std::size_t cells, int budget_per_cell)
      : reruns_(cells, 0), worst_(cells), budget_per_cell_(budget_per_cell) {}

  // A measured run of `cell` was disturbed, as `disturbance` says; queued when `rerun`. The first
  // of each cell gives the line that says why (with the setting that changes the rule); empty
  // for the others.
  // `calm_cpus`: the session's calm level the run was judged against (a burst, burst.hpp).
  // `duet`: a duet's run, left out with its partner and run again with it, not queued
  // (DisturbanceStep::judge_pair).
  std::string on_disturbed(std::size_t run_index, std::size_t cell, const runfile::RunRow& row,
                           const RunDisturbance& disturbance, const config::Config& config,
                           const std::string& label, std::optional<double> calm_cpus = std::nullopt,
                           bool duet = false);
  [[nodiscard]] std::optional<std::size_t> next() const;  // the next run to re-run
  // Takes the next run off the queue: true when its cell's budget allows a re-run (counted),
  // false when it is spent.
  bool take(std::size_t cell);
  // One re-run of `cell` without the queue (a duet's pair): true when its budget allows it.
  bool spend(std::size_t cell);
  [[nodiscard]] bool has_budget(std::size_t cell) const { return reruns_[cell] < budget_per_cell_; }
  // Once per cell whose budget ran out, a warning naming the figure; empty otherwise.
  std::string budget_warning(std::size_t cell, const std::string& label, std::size_t ok_runs);

 private:
  struct Worst {
    double fraction = 0;  // the largest suffered_s / elapsed of its disturbed runs
    std::string phrase;   // that run's suffered_phrase
  };
  std::deque<std::size_t> queue_;
  std::vector<int> reruns_;       // per cell
  std::vector<Worst> worst_;      // per cell
  std::set<std::size_t> told_;    // cells whose first disturbed run was said
  std::set<std::size_t> warned_;  // cells told their budget is spent
  int budget_per_cell_;
};

}  // namespace iobench::run
