#include "driver/run/disturbance.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <utility>

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

bool is_disturbed(const RunDisturbance& disturbance, double elapsed_s, double threshold_cpus) {
  const double allowed_s = std::max(0.0, threshold_cpus * elapsed_s);
  return disturbance.others_cpu_s + disturbance.steal_s > allowed_s + disturbance.resolution_s;
}

bool judge_disturbance(runfile::RunRow& row, const RunDisturbance& disturbance,
                       const config::Config& config) {
  row.others_cpu_s = disturbance.others_cpu_s;
  row.steal_s = disturbance.steal_s;
  if (config.disturbance == config::DisturbanceMode::kOff ||
      row.status != runfile::RunStatus::kOk ||
      !is_disturbed(disturbance, row.elapsed_s, config.disturbance_threshold_cpus)) {
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
  before_ = sample();
}

std::optional<RunDisturbance> DisturbanceMeter::after_run(const rusage& measured_tree) {
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  const double measured_tree_cpu_s =
      seconds(measured_tree.ru_utime) + seconds(measured_tree.ru_stime);
  const Sample after = sample();
  const Sample before = std::exchange(before_, Sample{});
  if (!before.stat || !after.stat || !before.harness_cpu_s || !after.harness_cpu_s) {
    return std::nullopt;
  }
  const double harness_s = std::max(0.0, *after.harness_cpu_s - *before.harness_cpu_s);
  std::optional<std::pair<double, double>> machine_cpu_s;
  if (before.machine_cpu_s && after.machine_cpu_s)
    machine_cpu_s.emplace(*before.machine_cpu_s, *after.machine_cpu_s);
  return disturbance_between(*before.stat, *after.stat, harness_s + measured_tree_cpu_s,
                             source_.ticks_per_s, machine_cpu_s);
}

void DisturbedRuns::on_disturbed(std::size_t run_index, std::size_t cell,
                                 const runfile::RunRow& row, config::DisturbanceMode mode) {
  const double others_s = row.others_cpu_s.value_or(0) + row.steal_s.value_or(0);
  worst_cpus_[cell] = std::max(worst_cpus_[cell], others_s / std::max(row.elapsed_s, 1e-9));
  if (mode == config::DisturbanceMode::kRerun) queue_.push_back(run_index);
}

std::optional<std::size_t> DisturbedRuns::next() const {
  if (queue_.empty()) return std::nullopt;
  return queue_.front();
}

bool DisturbedRuns::take(std::size_t cell) {
  queue_.pop_front();
  if (reruns_[cell] >= budget_per_cell_) return false;
  ++reruns_[cell];
  return true;
}

std::string DisturbedRuns::budget_warning(std::size_t cell, const std::string& label,
                                          std::size_t ok_runs) {
  if (reruns_[cell] < budget_per_cell_ || !warned_.insert(cell).second) return {};
  return fmt::format(
      "{}: others kept up to {:.2f} CPUs busy during its disturbed runs; its re-run budget of {} "
      "is spent, so {} ok runs count (docs/driver.md, \"Disturbance\")",
      label, worst_cpus_[cell], budget_per_cell_, ok_runs);
}

}  // namespace iobench::run
