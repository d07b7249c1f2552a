#include "driver/run/run_budget.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "driver/run/cell_label.hpp"

namespace iobench::run {
namespace {

// With a time to fill, a cell stops after this many times its budget of runs, whatever became
// of them: a machine busy through every run would otherwise re-run to the most repeats.
constexpr std::size_t kRunsPerBudgetedRun = 3;

}  // namespace

std::size_t runs_to_fill(const config::Plan& plan, double first_run_s) {
  const auto least = static_cast<std::size_t>(std::max(plan.repeats_min, 1));
  const auto most = static_cast<std::size_t>(std::max(plan.repeats, 1));
  if (!(first_run_s > 0)) return most;  // too short to time: as many as allowed
  // Rounded down, as hyperfine counts (its runs_in_min_time is the quotient cast to u64).
  const double runs = std::floor(plan.fill_s / first_run_s);
  if (runs >= static_cast<double>(most)) return most;
  return std::clamp(static_cast<std::size_t>(runs), least, most);
}

RunBudget::RunBudget(const config::Plan& plan, const config::Config& config)
    : plan_(plan),
      config_(config),
      target_{plan.repeats_min, plan.repeats, plan.ci_pct},
      runs_granted_(plan.cells.size(), 0),
      first_run_extra_s_(plan.cells.size(), 0.0) {}

std::size_t RunBudget::most_runs(std::size_t cell,
                                 const std::vector<std::vector<double>>& ok_elapsed_s) const {
  if (plan_.fill_s <= 0) return static_cast<std::size_t>(std::max(plan_.repeats, 1));
  const std::vector<double>& ok = ok_elapsed_s[cell];
  if (ok.empty()) return static_cast<std::size_t>(std::max(plan_.repeats_min, 1));
  return runs_to_fill(plan_, ok.front() + first_run_extra_s_[cell]);
}

bool RunBudget::bound_reached(std::size_t cell, std::size_t most) const {
  return runs_granted_[cell] >= kRunsPerBudgetedRun * most;
}

bool RunBudget::met(std::size_t cell, const std::vector<std::vector<double>>& ok_elapsed_s) const {
  if (plan_.fill_s <= 0) return stats::precise_enough(ok_elapsed_s[cell], target_);
  const std::size_t most = most_runs(cell, ok_elapsed_s);
  return ok_elapsed_s[cell].size() >= most || bound_reached(cell, most);
}

std::vector<std::string> RunBudget::cut_short(
    const std::vector<std::vector<double>>& ok_elapsed_s) const {
  std::vector<std::string> warnings;
  if (plan_.fill_s <= 0) return warnings;
  for (std::size_t cell = 0; cell < plan_.cells.size(); ++cell) {
    const std::size_t most = most_runs(cell, ok_elapsed_s);
    const std::size_t ok = ok_elapsed_s[cell].size();
    if (ok >= most || !bound_reached(cell, most)) continue;
    warnings.push_back(
        fmt::format("{}: {} ok runs of the {} that fill {} s, after {} runs; the others were "
                    "disturbed or failed",
                    cell_label(plan_, config_, cell), ok, most, plan_.fill_s, runs_granted_[cell]));
  }
  return warnings;
}

}  // namespace iobench::run
