#include "driver/run/decided_comparisons.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace iobench {
namespace {

// Without a precision target the first look comes at 5 runs a side: the default plan's, where
// a difference can first be decided at 6 (docs/reports.md, "Deciding a comparison").
constexpr std::size_t kFirstLookRunsWithoutTarget = 5;

bool decided(const report::SequentialResult& result) {
  return result.decision != report::Decision::kContinue;
}

}  // namespace

report::SequentialPlan sequential_plan(const Plan& plan, const Config& config) {
  report::SequentialPlan sequential;
  sequential.max_runs = static_cast<std::size_t>(std::max(plan.repeats, 1));
  sequential.first_look_runs = plan.repeats_min < plan.repeats
                                   ? static_cast<std::size_t>(std::max(plan.repeats_min, 1))
                                   : std::min(kFirstLookRunsWithoutTarget, sequential.max_runs);
  sequential.margin = config.decide_margin_pct / 100;
  return sequential;
}

DecidedComparisons::DecidedComparisons(const Plan& plan, const Config& config)
    : plan_(plan),
      target_{plan.repeats_min, plan.repeats, plan.ci_pct},
      comparison_of_test_cell_(plan.cells.size()),
      comparisons_of_reference_cell_(plan.cells.size()) {
  for (const auto& spec : config.inputs) {
    input_names_.push_back(spec.path.filename().string());
    input_paths_.push_back(spec.path.string());
  }
  if (!config.decide || !plan.baseline_test) return;
  rule_.emplace(sequential_plan(plan, config));
  for (std::size_t reference = 0; reference < plan.cells.size(); ++reference) {
    const Cell& base = plan.cells[reference];
    if (base.test != *plan.baseline_test) continue;
    for (std::size_t cell = 0; cell < plan.cells.size(); ++cell) {
      const Cell& c = plan.cells[cell];
      if (c.test == base.test || c.input != base.input || c.sink != base.sink) continue;
      comparison_of_test_cell_[cell] = comparisons_.size();
      comparisons_of_reference_cell_[reference].push_back(comparisons_.size());
      comparisons_.push_back(Comparison{cell, reference, {}});
    }
  }
}

const report::SequentialResult& DecidedComparisons::look(
    Comparison& comparison, const std::vector<std::vector<double>>& ok_elapsed_s) {
  const std::vector<double>& reference = ok_elapsed_s[comparison.reference_cell];
  const std::vector<double>& test = ok_elapsed_s[comparison.test_cell];
  // A decision stands, and each look is made once: looking again on more data would spend its
  // alpha twice.
  if (decided(comparison.last) ||
      rule_->look_at(std::min(reference.size(), test.size())) == comparison.last.look)
    return comparison.last;
  comparison.last = rule_->decide(reference, test);
  return comparison.last;
}

bool DecidedComparisons::enough(std::size_t cell,
                                const std::vector<std::vector<double>>& ok_elapsed_s) {
  // Never more runs than the precision target alone would make: a decision only stops earlier.
  const bool precise = report::precise_enough(ok_elapsed_s[cell], target_);
  if (!rule_) return precise;
  if (const auto index = comparison_of_test_cell_[cell])
    return decided(look(comparisons_[*index], ok_elapsed_s)) || precise;
  const std::vector<std::size_t>& mine = comparisons_of_reference_cell_[cell];
  if (mine.empty()) return precise;
  for (const std::size_t index : mine) {
    if (!decided(look(comparisons_[index], ok_elapsed_s))) return precise;
  }
  return true;  // the baseline: every comparison it is in is decided
}

std::vector<std::string> DecidedComparisons::decisions(
    const std::vector<std::vector<double>>& ok_elapsed_s,
    std::vector<report::RuleDecision>* rule_decisions) {
  std::vector<std::string> lines;
  for (Comparison& comparison : comparisons_) {
    look(comparison, ok_elapsed_s);
    const Cell& cell = plan_.cells[comparison.test_cell];
    if (rule_decisions != nullptr) {
      rule_decisions->push_back({plan_.tests[cell.test].name, input_paths_[cell.input],
                                 std::string(to_string(cell.sink)), comparison.last,
                                 rule_->plan()});
    }
    lines.push_back(fmt::format("'{}' on {} ({} sink) against '{}': {}",
                                plan_.tests[cell.test].name, input_names_[cell.input],
                                to_string(cell.sink),
                                plan_.tests[plan_.cells[comparison.reference_cell].test].name,
                                report::decision_phrase(comparison.last, rule_->plan())));
  }
  return lines;
}

}  // namespace iobench
