#pragma once
// How many measured runs a cell gets (docs/bench.md, "How many runs"): the plan's repeats, or
// fewer when the precision target is met (stats::precise_enough); with a time to fill, the runs
// that fill it at the cell's first run's pace, and at most three times that many runs in all,
// whatever became of them (the disturbed runs' bound, docs/driver.md, "Disturbance").
// DecidedComparisons asks it for each cell's own target and stops a cell earlier only when its
// comparison is decided.
#include <cstddef>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/config/plan.hpp"
#include "driver/stats/precision.hpp"

namespace iobench::run {

// With a time to fill: the runs that fill `fill_s` at `first_run_s` a run (hyperfine's count:
// the time over the first run's, rounded down), between the plan's least and most repeats.
std::size_t runs_to_fill(const config::Plan& plan, double first_run_s);

class RunBudget {
 public:
  RunBudget(const config::Plan& plan, const config::Config& config);
  // The cell's most ok runs, whose ok runs so far are ok_elapsed_s[cell]: the plan's, or with a
  // time to fill the runs that fill it (the least repeats until the cell has an ok run).
  [[nodiscard]] std::size_t most_runs(std::size_t cell,
                                      const std::vector<std::vector<double>>& ok_elapsed_s) const;
  // True when the cell needs no further run by its own target alone.
  [[nodiscard]] bool met(std::size_t cell,
                         const std::vector<std::vector<double>>& ok_elapsed_s) const;
  // A measured run granted to the cell: with a time to fill, they are what the bound counts.
  void count_run(std::size_t cell) { ++runs_granted_[cell]; }
  // What ran before the cell's first ok run and counts in its pace, as hyperfine adds its
  // prepare command's time to the first run's (bench --prepare).
  void add_to_first_run(std::size_t cell, double seconds) { first_run_extra_s_[cell] += seconds; }
  // With a time to fill, one warning per cell that three times its count of runs left short of
  // ok runs (every other run disturbed or failed): "'a' on in.txt (pipe sink): 8 ok runs of
  // the 55 that fill 3 s, after 165 runs; the others were disturbed or failed".
  [[nodiscard]] std::vector<std::string> cut_short(
      const std::vector<std::vector<double>>& ok_elapsed_s) const;

 private:
  [[nodiscard]] bool bound_reached(std::size_t cell, std::size_t most) const;

  const config::Plan& plan_;
  const config::Config& config_;
  stats::RepeatTarget target_;
  std::vector<std::size_t> runs_granted_;  // by cell
  std::vector<double> first_run_extra_s_;  // by cell
};

}  // namespace iobench::run
