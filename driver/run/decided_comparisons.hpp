#pragma once
// Which cells still need measured runs (docs/reports.md, "Deciding a comparison"; docs/bench.md,
// "How many runs"): a cell stops when its repeats are done, when the precision target says so
// (stats::precise_enough), or, with a time to fill, once its runs fill that time at its first
// run's pace; and earlier once it is decided by the sequential rule (config "decide"): a test's
// cell when its comparison with the baseline's cell on the same input and sink is decided, the
// baseline's cell when every comparison it is in is. The run loop asks it before each measured
// run.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"
#include "driver/report/sequential.hpp"
#include "driver/report/versus_reference.hpp"
#include "driver/run/run_budget.hpp"
#include "driver/stats/precision.hpp"
#include "driver/stats/sequential.hpp"

namespace iobench::run {

// The rule's plan for a config and its plan: the first look at the precision target's min (or
// at 5 runs, at most the budget, without one), the budget at the most repeats, alpha 0.05, the
// config's margin. With a time to fill, each comparison's budget comes from its cells' first
// runs (RunBudget).
stats::SequentialPlan sequential_plan(const config::Plan& plan, const config::Config& config);

class DecidedComparisons {
 public:
  DecidedComparisons(const config::Plan& plan, const config::Config& config);
  // True when `cell`, whose ok runs so far are ok_elapsed_s[cell], needs no further measured
  // run. Looks at a comparison once per look of its rule (stats::SequentialRule::look_at).
  // Each false answer counts as a run made (RunBudget::count_run).
  bool enough(std::size_t cell, const std::vector<std::vector<double>>& ok_elapsed_s);
  // Each cell's own budget, which a decision only cuts short.
  RunBudget& budget() { return budget_; }
  // After the last run: each comparison's last look (its cells' last runs were asked about
  // before they ran), then one line per comparison, in the plan's cell order, as
  // report::decision_phrase says it: "'b' on in.txt (pipe sink) against 'a': decided:
  // different after 6 runs". Empty when the rule is off. `rule_decisions`, when given, receives
  // the same endings with each cell as its rows name it, for bench's closing verdicts.
  std::vector<std::string> decisions(const std::vector<std::vector<double>>& ok_elapsed_s,
                                     std::vector<report::RuleDecision>* rule_decisions = nullptr);

 private:
  struct Comparison {
    std::size_t test_cell = 0;
    std::size_t reference_cell = 0;
    const stats::SequentialRule* rule = nullptr;  // with a time to fill, once both cells ran
    stats::SequentialResult last;                 // the last look's
  };
  const stats::SequentialRule& rule_for(const Comparison& comparison,
                                        const std::vector<std::vector<double>>& ok_elapsed_s);
  const stats::SequentialResult& look(Comparison& comparison,
                                      const std::vector<std::vector<double>>& ok_elapsed_s);
  bool decided_or_own_target(std::size_t cell,
                             const std::vector<std::vector<double>>& ok_elapsed_s);

  const config::Plan& plan_;
  const config::Config& config_;
  RunBudget budget_;
  std::optional<stats::SequentialPlan> rule_plan_;  // empty: the rule is off
  std::vector<Comparison> comparisons_;
  std::vector<std::optional<std::size_t>> comparison_of_test_cell_;      // by cell
  std::vector<std::vector<std::size_t>> comparisons_of_reference_cell_;  // by cell
  std::map<std::size_t, stats::SequentialRule> rules_;                   // by budget
};

}  // namespace iobench::run
