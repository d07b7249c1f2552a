#include "driver/run/disturbance.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <utility>

#include "driver/run/burst.hpp"

namespace iobench::run {

double ticks_resolution_s(long ticks_per_s) {
  return 2.0 / static_cast<double>(std::max(1L, ticks_per_s));
}

std::optional<RunDisturbance> disturbance_between(
    const ProcStatTicks& before, const ProcStatTicks& after, double own_cpu_s, long ticks_per_s,
    std::optional<std::pair<double, double>> machine_cpu_s) {
  if (after.busy < before.busy || after.steal < before.steal || after.total < before.total ||
      ticks_per_s <= 0 || (machine_cpu_s && machine_cpu_s->second < machine_cpu_s->first)) {
    return std::nullopt;
  }
  const double tick_s = 1.0 / static_cast<double>(ticks_per_s);
  const auto steal_ticks = static_cast<double>(after.steal - before.steal);
  const auto busy_ticks = static_cast<double>(after.busy - before.busy) - steal_ticks;
  RunDisturbance disturbance;
  disturbance.steal_s = steal_ticks * tick_s;
  if (machine_cpu_s) {
    disturbance.others_cpu_s =
        std::max(0.0, machine_cpu_s->second - machine_cpu_s->first - own_cpu_s);
    // Steal still comes in ticks: their error counts only when there was some.
    disturbance.resolution_s =
        kExactResolution_s + (steal_ticks > 0 ? ticks_resolution_s(ticks_per_s) : 0.0);
  } else {
    disturbance.others_cpu_s = std::max(0.0, busy_ticks * tick_s - own_cpu_s);
    disturbance.resolution_s = ticks_resolution_s(ticks_per_s);
  }
  return disturbance;
}

namespace {

// The run's wait for a CPU, as far as others ran meanwhile (suffered_s); others' time less the
// figure's resolution (a tick that one read may lag), so that a tick does not count once a task.
double waited_for_others_s(const RunDisturbance& disturbance) {
  const double waited_s = disturbance.wait_cpu_s.value_or(0);
  if (!disturbance.others_measured) return waited_s;
  const double others_s =
      std::max(0.0, disturbance.others_cpu_s + disturbance.steal_s - disturbance.resolution_s);
  return std::min(waited_s, std::max(1, disturbance.tasks) * others_s);
}

}  // namespace

double suffered_s(const RunDisturbance& disturbance) {
  return waited_for_others_s(disturbance) + disturbance.steal_s / std::max(1, disturbance.cpus);
}

double allowed_s(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus) {
  const double steal_resolution_s =
      disturbance.steal_s > 0 ? disturbance.resolution_s / std::max(1, disturbance.cpus) : 0.0;
  return std::max(0.0, threshold_cpus * elapsed_s) + kWaitFloor_s + steal_resolution_s;
}

bool is_disturbed(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus) {
  if (!disturbance.wait_cpu_s && disturbance.steal_s <= 0) return false;
  return suffered_s(disturbance) > allowed_s(disturbance, elapsed_s, threshold_cpus);
}

std::string milliseconds_text(double seconds, int decimals_from_10ms) {
  const double ms = seconds * 1e3;
  return ms < 10 ? fmt::format("{:.2f}", ms) : fmt::format("{:.{}f}", ms, decimals_from_10ms);
}

std::string suffered_phrase(const RunDisturbance& disturbance, double elapsed_s) {
  const auto ms = [](double s) { return milliseconds_text(s, 0); };
  std::string phrase;
  if (disturbance.wait_cpu_s) {
    phrase = fmt::format(
        "{} {} ms of its {} ms for a CPU",
        disturbance.wait_scope == WaitScope::kTree ? "its processes waited" : "the worker waited",
        ms(waited_for_others_s(disturbance)), ms(elapsed_s));
  }
  if (disturbance.steal_s > 0) {
    phrase += fmt::format("{}{} ms of the CPUs' time went to other guests (steal)",
                          phrase.empty() ? "" : ", and ",
                          ms(disturbance.steal_s / std::max(1, disturbance.cpus)));
  }
  return phrase;
}

bool judge_disturbance(runfile::RunRow& row, const RunDisturbance& disturbance,
                       const config::Config& config, std::optional<double> calm_cpus) {
  row.others_cpu_s = disturbance.others_cpu_s;
  row.steal_s = disturbance.steal_s;
  row.wait_cpu_s = disturbance.wait_cpu_s;
  row.block_io_wait_s = disturbance.block_io_wait_s;
  const double threshold = config.disturbance_threshold_cpus;
  if (config.disturbance == config::DisturbanceMode::kOff ||
      row.status != runfile::RunStatus::kOk ||
      (!is_disturbed(disturbance, row.elapsed_s, threshold) &&
       !is_burst(disturbance, row.elapsed_s, calm_cpus, threshold))) {
    return false;
  }
  row.status = runfile::RunStatus::kDisturbed;
  return true;
}

DisturbanceMeter::Sample DisturbanceMeter::sample() const {
  Sample sample;
  sample.stat = parse_proc_stat(source_.read("/proc/stat"));
  if (source_.harness_cpu_s) sample.harness_cpu_s = source_.harness_cpu_s();
  if (source_.machine_cpu_s) sample.machine_cpu_s = source_.machine_cpu_s();
  return sample;
}

void DisturbanceMeter::before_run() {
  // The exits reported since the last run are others': only the coming run's count.
  if (source_.task_exits) source_.task_exits();
  before_ = sample();
}

std::optional<RunDisturbance> DisturbanceMeter::after_run(const spawn::SpawnResult& result) {
  return after_runs(std::span(&result, 1)).front();
}

namespace {

double tree_cpu_s(const spawn::SpawnResult& result) {
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(result.usage.ru_utime) + seconds(result.usage.ru_stime);
}

// What one of the runs waited for a CPU, into (a copy of) what others did meanwhile.
std::optional<RunDisturbance> with_own_wait(std::optional<RunDisturbance> disturbance,
                                            const spawn::SpawnResult& result,
                                            const std::optional<TreeWait>& tree) {
  if (!tree && !result.own_wait_cpu_s) return disturbance;
  if (!disturbance) disturbance.emplace();
  if (tree) {
    // Its tasks together lived at most `tasks` times the run, less their time on a CPU (wait4's,
    // exact; a task's exit report can miss the last tick of it): the tighter bound for one.
    disturbance->wait_cpu_s =
        std::min(tree->cpu_s, std::max(0.0, tree->tasks * result.elapsed_s - tree_cpu_s(result)));
    disturbance->wait_scope = WaitScope::kTree;
    disturbance->block_io_wait_s = tree->block_io_s;
    disturbance->tasks = tree->tasks;
  } else {
    // The worker lived at most the run's elapsed time: what it says it waited beyond that less its
    // time on a CPU is the clocks' skew (possible_wait_ns).
    const auto ns = [](double s) { return static_cast<std::uint64_t>(std::max(0.0, s) * 1e9); };
    disturbance->wait_cpu_s =
        static_cast<double>(possible_wait_ns(ns(*result.own_wait_cpu_s), ns(result.elapsed_s),
                                             ns(result.own_on_cpu_s.value_or(0)))) *
        1e-9;
    disturbance->wait_scope = WaitScope::kWorker;
  }
  return disturbance;
}

}  // namespace

// Runs at the same moment (a duet) share the interval: each one's tree is iobench's own, not
// another's, and each is judged by its own wait.
std::vector<std::optional<RunDisturbance>> DisturbanceMeter::after_runs(
    std::span<const spawn::SpawnResult> results) {
  double measured_trees_cpu_s = 0;
  for (const spawn::SpawnResult& result : results) measured_trees_cpu_s += tree_cpu_s(result);
  const Sample after = sample();
  const Sample before = std::exchange(before_, Sample{});
  std::optional<RunDisturbance> disturbance;
  if (before.stat && after.stat && before.harness_cpu_s && after.harness_cpu_s) {
    const double harness_s = std::max(0.0, *after.harness_cpu_s - *before.harness_cpu_s);
    std::optional<std::pair<double, double>> machine_cpu_s;
    if (before.machine_cpu_s && after.machine_cpu_s)
      machine_cpu_s.emplace(*before.machine_cpu_s, *after.machine_cpu_s);
    disturbance = disturbance_between(*before.stat, *after.stat, harness_s + measured_trees_cpu_s,
                                      source_.ticks_per_s, machine_cpu_s);
    if (disturbance) {
      disturbance->cpus = std::max(1, after.stat->cpus);
      disturbance->others_measured = true;
    }
  }
  const std::optional<std::vector<TaskExit>> exits =
      source_.task_exits ? source_.task_exits() : std::nullopt;
  std::vector<std::optional<RunDisturbance>> each;
  for (const spawn::SpawnResult& result : results) {
    std::optional<TreeWait> tree;
    if (exits && result.pid > 0) tree = tree_wait(*exits, result.pid, source_.block_io_accounted);
    each.push_back(with_own_wait(disturbance, result, tree));
  }
  return each;
}

namespace {

// What condemned a run, as the messages say it: its figure, the share of its elapsed time that
// figure is (the worst of a cell is named when its budget runs out), and the rule's allowance.
struct Condemned {
  std::string figure;
  double fraction = 0;
  std::string allowance;
};

Condemned condemned(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus,
                    std::optional<double> calm_cpus) {
  const double elapsed = std::max(elapsed_s, 1e-9);
  if (is_disturbed(disturbance, elapsed_s, threshold_cpus) || !calm_cpus) {
    return {suffered_phrase(disturbance, elapsed_s), suffered_s(disturbance) / elapsed,
            fmt::format("more than the {:.2f} ms the rule allows ({} of a CPU)",
                        allowed_s(disturbance, elapsed_s, threshold_cpus) * 1e3, threshold_cpus)};
  }
  return {burst_phrase(disturbance, elapsed_s, *calm_cpus),
          burst_excess_s(disturbance, elapsed_s, *calm_cpus) / elapsed,
          fmt::format("more than the {} of a CPU beyond the calm that the burst rule allows "
                      "(twice the threshold)",
                      kBurstFactor * threshold_cpus)};
}

}  // namespace

std::string DisturbedRuns::on_disturbed(std::size_t run_index, std::size_t cell,
                                        const runfile::RunRow& row,
                                        const RunDisturbance& disturbance,
                                        const config::Config& config, const std::string& label,
                                        std::optional<double> calm_cpus, bool duet) {
  const Condemned why =
      condemned(disturbance, row.elapsed_s, config.disturbance_threshold_cpus, calm_cpus);
  if (worst_[cell].phrase.empty() || why.fraction > worst_[cell].fraction)
    worst_[cell] = {why.fraction, why.figure};
  const bool rerun = config.disturbance == config::DisturbanceMode::kRerun;
  if (rerun && !duet) queue_.push_back(run_index);
  if (!told_.insert(cell).second) return {};
  return fmt::format(
      "{}: run {} was disturbed: {}, {}; {}. The rule: --disturbance-threshold CPUS or "
      "\"disturbance_threshold_cpus\"; off with --disturbance off, \"disturbance\": \"off\" or "
      "{}=off (docs/driver.md, \"Disturbance\")",
      label, row.repeat, why.figure, why.allowance,
      duet ? (rerun ? "it and its duet partner are left out and run again"
                    : "it and its duet partner are left out")
           : (rerun ? "it is left out and run again" : "it is left out"),
      config::kDisturbanceEnv);
}

std::optional<std::size_t> DisturbedRuns::next() const {
  if (queue_.empty()) return std::nullopt;
  return queue_.front();
}

bool DisturbedRuns::take(std::size_t cell) {
  queue_.pop_front();
  return spend(cell);
}

bool DisturbedRuns::spend(std::size_t cell) {
  if (!has_budget(cell)) return false;
  ++reruns_[cell];
  return true;
}

std::string DisturbedRuns::budget_warning(std::size_t cell, const std::string& label,
                                          std::size_t ok_runs) {
  if (reruns_[cell] < budget_per_cell_ || !warned_.insert(cell).second) return {};
  return fmt::format(
      "{}: its re-run budget of {} is spent, so {} ok runs count; at worst {} "
      "(docs/driver.md, \"Disturbance\")",
      label, budget_per_cell_, ok_runs,
      worst_[cell].phrase.empty() ? "it was left out with its duet partner" : worst_[cell].phrase);
}

}  // namespace iobench::run
