#pragma once
// The run loop's fourth step (docs/driver.md, "Disturbance"): a measured run's disturbance judged
// into its row, and with `disturbance: rerun` the disturbed runs queued to be re-run at the end of
// their round, each cell within its re-run budget (twice the repeats). The loop asks it where a
// round ends and which run to re-run next.
#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "driver/run/burst.hpp"
#include "driver/run/disturbance.hpp"
#include "driver/run/progress.hpp"

namespace iobench::run {

class DisturbanceStep {
 public:
  DisturbanceStep(const config::Plan& plan, const config::Config& config, Progress& progress);
  // Measured run `run_index`'s figures into its row; a disturbed ok row is marked (its own wait,
  // or a burst against the calm of the runs judged before it), and queued when the config
  // re-runs.
  void judge(std::size_t run_index, runfile::RunRow& row,
             const std::optional<RunDisturbance>& disturbance);
  // A duet's pair (config order `duet`), each by its own figures; a pair is measured together or
  // not at all, so when either was disturbed the other's ok row is left out with it. True then.
  bool judge_pair(const std::array<std::size_t, 2>& run_index,
                  const std::array<runfile::RunRow*, 2>& rows,
                  const std::array<std::optional<RunDisturbance>, 2>& disturbance);
  // With `disturbance: rerun`, whether a pair judge_pair left out runs again now: both cells'
  // budgets allow it (counted); said once per cell when one is spent.
  bool take_pair_rerun(const std::array<std::size_t, 2>& run_index,
                       const std::vector<std::vector<double>>& ok_elapsed_s);
  // True while disturbed runs wait to be re-run.
  [[nodiscard]] bool waiting() const { return runs_.next().has_value(); }
  // True when the queue waits and `next` ends its round: it is no measured run of the same
  // repeat as the first waiting run.
  [[nodiscard]] bool round_ends_before(const config::PlannedRun& next) const;
  // Takes the first waiting run off the queue: its index to run again, or empty when its cell
  // needs none (`needs_none`) or its budget is spent (said once per cell, with its ok runs
  // ok_elapsed_s[cell]).
  std::optional<std::size_t> take_rerun(const std::function<bool(std::size_t cell)>& needs_none,
                                        const std::vector<std::vector<double>>& ok_elapsed_s);

 private:
  const config::Plan& plan_;
  const config::Config& config_;
  Progress& progress_;
  // The ok row judged disturbed, said (once per cell) and, unless a duet's, queued; true then.
  bool judged_disturbed(std::size_t run_index, runfile::RunRow& row,
                        const std::optional<RunDisturbance>& disturbance, bool duet);
  // Said once per cell when its budget is spent.
  void warn_budget_spent(std::size_t cell, const std::vector<std::vector<double>>& ok_elapsed_s);
  DisturbedRuns runs_;
  SessionCalm calm_;  // the session's measured runs so far, for the burst rule
};

}  // namespace iobench::run
