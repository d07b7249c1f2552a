#pragma once
// What the rest of the machine did during each measured run (docs/driver.md, "Disturbance"): the
// CPU time of every task on the machine (the root cpuacct group, to the nanosecond; /proc/stat's
// busy ticks where it cannot be read) just before the worker is spawned and just after it is
// reaped, less the CPU time of iobench's own processes over the same span (the driver's threads
// and the spawner from ProcSource::harness_cpu_s, the measured tree exactly from its wait4), and
// the steal time from /proc/stat. A few reads a run; the fake ProcSource of the tests tells the
// executor what others did.
#include <sys/resource.h>

#include <cstddef>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/run/machine_load.hpp"

namespace iobench::run {

struct RunDisturbance {
  double others_cpu_s = 0;  // other processes' CPU time, clamped at 0
  double steal_s = 0;       // time a hypervisor gave to other guests
  double resolution_s = 0;  // how far the two figures may be off, added to what the rule allows
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

// The rule: others (steal included) kept more than `threshold_cpus` of a CPU busy over the run's
// elapsed time, by more than the figure's resolution. A run shorter than a tick can therefore not
// be judged disturbed by a tick or two of /proc/stat that happened to fall in it.
bool is_disturbed(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus);

// Puts the figures into a measured row, whatever the mode; marks an ok row disturbed when the
// config's mode is not `off` and is_disturbed says so. True when it marked it.
bool judge_disturbance(runfile::RunRow& row, const RunDisturbance& disturbance,
                       const config::Config& config);

// Takes the samples around each run through a ProcSource.
class DisturbanceMeter {
 public:
  explicit DisturbanceMeter(ProcSource source) : source_(std::move(source)) {}

  // Just before the worker is spawned.
  void before_run();
  // Just after it is reaped, with the measured tree's user + system time (wait4): the
  // disturbance since before_run, or empty when /proc/stat or the harness time cannot be read.
  std::optional<RunDisturbance> after_run(const rusage& measured_tree);

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
      : reruns_(cells, 0), worst_cpus_(cells, 0.0), budget_per_cell_(budget_per_cell) {}

  // A measured run of `cell` was disturbed (its row holds the figures); queued when `rerun`.
  void on_disturbed(std::size_t run_index, std::size_t cell, const runfile::RunRow& row,
                    config::DisturbanceMode mode);
  [[nodiscard]] std::optional<std::size_t> next() const;  // the next run to re-run
  // Takes the next run off the queue: true when its cell's budget allows a re-run (counted),
  // false when it is spent.
  bool take(std::size_t cell);
  // Once per cell whose budget ran out, a warning naming the figure; empty otherwise.
  std::string budget_warning(std::size_t cell, const std::string& label, std::size_t ok_runs);

 private:
  std::deque<std::size_t> queue_;
  std::vector<int> reruns_;         // per cell
  std::vector<double> worst_cpus_;  // per cell: the largest figure of its disturbed runs
  std::set<std::size_t> warned_;    // cells told their budget is spent
  int budget_per_cell_;
};

}  // namespace iobench::run
