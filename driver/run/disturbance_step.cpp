#include "driver/run/disturbance_step.hpp"

#include <string>

#include "driver/run/cell_label.hpp"

namespace iobench::run {

DisturbanceStep::DisturbanceStep(const config::Plan& plan, const config::Config& config,
                                 Progress& progress)
    : plan_(plan),
      config_(config),
      progress_(progress),
      runs_(plan.cells.size(), 2 * plan.repeats) {}

void DisturbanceStep::judge(std::size_t run_index, runfile::RunRow& row,
                            const std::optional<RunDisturbance>& disturbance) {
  judged_disturbed(run_index, row, disturbance, /*duet=*/false);
}

bool DisturbanceStep::judged_disturbed(std::size_t run_index, runfile::RunRow& row,
                                       const std::optional<RunDisturbance>& disturbance,
                                       bool duet) {
  if (!disturbance) return false;
  // A duet's figures of others span the pair's interval, not the run's: its own wait judges it.
  const std::optional<double> calm_cpus = duet ? std::nullopt : calm_.level_cpus();
  if (row.status == runfile::RunStatus::kOk && !duet) calm_.add(*disturbance, row.elapsed_s);
  if (!judge_disturbance(row, *disturbance, config_, calm_cpus)) return false;
  const std::size_t cell = plan_.runs[run_index].cell;
  if (const std::string line = runs_.on_disturbed(
          run_index, cell, row, *disturbance, config_,
          cell_label(plan_, config_, cell, TestNameQuotes::kBare), calm_cpus, duet);
      !line.empty())
    progress_.warn(line);
  return true;
}

bool DisturbanceStep::judge_pair(const std::array<std::size_t, 2>& run_index,
                                 const std::array<runfile::RunRow*, 2>& rows,
                                 const std::array<std::optional<RunDisturbance>, 2>& disturbance) {
  const bool first = judged_disturbed(run_index[0], *rows[0], disturbance[0], /*duet=*/true);
  const bool second = judged_disturbed(run_index[1], *rows[1], disturbance[1], /*duet=*/true);
  if (!first && !second) return false;
  for (runfile::RunRow* row : rows) {
    if (row->status == runfile::RunStatus::kOk) row->status = runfile::RunStatus::kDisturbed;
  }
  return true;
}

bool DisturbanceStep::take_pair_rerun(const std::array<std::size_t, 2>& run_index,
                                      const std::vector<std::vector<double>>& ok_elapsed_s) {
  if (config_.disturbance != config::DisturbanceMode::kRerun) return false;
  for (const std::size_t index : run_index) {
    const std::size_t cell = plan_.runs[index].cell;
    if (!runs_.has_budget(cell)) {
      warn_budget_spent(cell, ok_elapsed_s);
      return false;
    }
  }
  for (const std::size_t index : run_index) runs_.spend(plan_.runs[index].cell);
  return true;
}

void DisturbanceStep::warn_budget_spent(std::size_t cell,
                                        const std::vector<std::vector<double>>& ok_elapsed_s) {
  if (const std::string warning = runs_.budget_warning(
          cell, cell_label(plan_, config_, cell, TestNameQuotes::kBare), ok_elapsed_s[cell].size());
      !warning.empty())
    progress_.warn(warning);
}

bool DisturbanceStep::round_ends_before(const config::PlannedRun& next) const {
  const auto waiting = runs_.next();
  return waiting &&
         (next.phase != config::RunPhase::kMeasure || next.repeat != plan_.runs[*waiting].repeat);
}

std::optional<std::size_t> DisturbanceStep::take_rerun(
    const std::function<bool(std::size_t cell)>& needs_none,
    const std::vector<std::vector<double>>& ok_elapsed_s) {
  const auto index = runs_.next();
  if (!index) return std::nullopt;
  const std::size_t cell = plan_.runs[*index].cell;
  if (needs_none(cell)) {
    runs_.take(cell);
    return std::nullopt;
  }
  if (!runs_.take(cell)) {
    warn_budget_spent(cell, ok_elapsed_s);
    return std::nullopt;
  }
  return index;
}

}  // namespace iobench::run
