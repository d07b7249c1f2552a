#pragma once
// Which cells still need measured runs when the sequential rule is on (config "decide";
// docs/reports.md, "Deciding a comparison"): a cell stops when the precision target says so
// (report::precise_enough, as without the rule), and earlier once it is decided: a test's cell
// when its comparison with the baseline's cell on the same input and sink is decided, the
// baseline's cell when every comparison it is in is. The run loop asks it before each measured
// run, the way it asked precise_enough.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver/config/plan.hpp"
#include "driver/report/precision.hpp"
#include "driver/report/sequential.hpp"
#include "driver/report/versus_reference.hpp"

namespace iobench {

// The rule's plan for a config and its plan: the first look at the precision target's min
// (or at 5 runs, at most the repeats, without a target), the budget at the most repeats, alpha
// 0.05, the config's margin.
report::SequentialPlan sequential_plan(const Plan& plan, const Config& config);

class DecidedComparisons {
 public:
  DecidedComparisons(const Plan& plan, const Config& config);
  // True when `cell`, whose ok runs so far are ok_elapsed_s[cell], needs no further measured
  // run. Looks at a comparison once per look of the plan (report::SequentialRule::look_at).
  bool enough(std::size_t cell, const std::vector<std::vector<double>>& ok_elapsed_s);
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
    report::SequentialResult last;  // the last look's
  };
  const report::SequentialResult& look(Comparison& comparison,
                                       const std::vector<std::vector<double>>& ok_elapsed_s);

  const Plan& plan_;
  report::RepeatTarget target_;
  std::optional<report::SequentialRule> rule_;  // empty: the rule is off
  std::vector<std::string> input_names_;        // file names, as the run's warnings name inputs
  std::vector<std::string> input_paths_;        // as the rows' input column has them
  std::vector<Comparison> comparisons_;
  std::vector<std::optional<std::size_t>> comparison_of_test_cell_;      // by cell
  std::vector<std::vector<std::size_t>> comparisons_of_reference_cell_;  // by cell
};

}  // namespace iobench
