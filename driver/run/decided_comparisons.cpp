#include "driver/run/decided_comparisons.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "driver/run/cell_label.hpp"

namespace iobench::run {
namespace {

// Without a precision target the first look comes at 5 runs a side: the default plan's, where
// a difference can first be decided at 6 (docs/reports.md, "Deciding a comparison").
constexpr std::size_t kFirstLookRunsWithoutTarget = 5;

bool decided(const stats::SequentialResult& result) {
  return result.decision != stats::Decision::kContinue;
}

}  // namespace

stats::SequentialPlan sequential_plan(const config::Plan& plan, const config::Config& config) {
  stats::SequentialPlan sequential;
  sequential.max_runs = static_cast<std::size_t>(std::max(plan.repeats, 1));
  sequential.first_look_runs = plan.ci_pct > 0 && plan.repeats_min < plan.repeats
                                   ? static_cast<std::size_t>(std::max(plan.repeats_min, 1))
                                   : std::min(kFirstLookRunsWithoutTarget, sequential.max_runs);
  sequential.margin = config.decide_margin_pct / 100;
  // Interleaved rounds run every cell once each, so the i-th ok runs of two cells were made
  // within a round of each other (a re-run disturbed twice moves one later).
  sequential.paired = config::rounds_interleaved(config.order);
  return sequential;
}

DecidedComparisons::DecidedComparisons(const config::Plan& plan, const config::Config& config)
    : plan_(plan),
      config_(config),
      budget_(plan, config),
      comparison_of_test_cell_(plan.cells.size()),
      comparisons_of_reference_cell_(plan.cells.size()) {
  if (!config.decide) return;
  // Each test's cell against its reference's on the same input and sink.
  std::map<std::tuple<std::size_t, std::size_t, config::SinkKind>, std::size_t> cell_of;
  for (std::size_t c = 0; c < plan.cells.size(); ++c) {
    const config::Cell& cell = plan.cells[c];
    cell_of.emplace(std::tuple(cell.test, cell.input, cell.sink), c);
  }
  for (std::size_t cell = 0; cell < plan.cells.size(); ++cell) {
    const config::Cell& c = plan.cells[cell];
    const std::optional<std::size_t> reference_test = plan.tests[c.test].reference;
    if (!reference_test) continue;
    const auto reference = cell_of.find(std::tuple(*reference_test, c.input, c.sink));
    if (reference == cell_of.end()) continue;  // another shard's
    comparison_of_test_cell_[cell] = comparisons_.size();
    comparisons_of_reference_cell_[reference->second].push_back(comparisons_.size());
    comparisons_.push_back(Comparison{cell, reference->second, nullptr, {}});
  }
  if (!comparisons_.empty()) rule_plan_ = sequential_plan(plan, config);
}

const stats::SequentialResult& DecidedComparisons::look(
    Comparison& comparison, const std::vector<std::vector<double>>& ok_elapsed_s) {
  const std::vector<double>& reference = ok_elapsed_s[comparison.reference_cell];
  const std::vector<double>& test = ok_elapsed_s[comparison.test_cell];
  // With a time to fill the budget is known once both cells have run.
  if (comparison.rule == nullptr && plan_.fill_s > 0 && (reference.empty() || test.empty()))
    return comparison.last;
  if (comparison.rule == nullptr) comparison.rule = &rule_for(comparison, ok_elapsed_s);
  // A decision stands, and each look is made once: looking again on more data would spend its
  // alpha twice.
  if (decided(comparison.last) ||
      comparison.rule->look_at(std::min(reference.size(), test.size())) == comparison.last.look)
    return comparison.last;
  comparison.last = comparison.rule->decide(reference, test);
  return comparison.last;
}

// The smaller budget of the two cells, so that neither runs longer than it would alone (nor
// longer than hyperfine would, with a time to fill). Rules are shared: planning one integrates.
const stats::SequentialRule& DecidedComparisons::rule_for(
    const Comparison& comparison, const std::vector<std::vector<double>>& ok_elapsed_s) {
  const std::size_t max_runs = std::min(budget_.most_runs(comparison.reference_cell, ok_elapsed_s),
                                        budget_.most_runs(comparison.test_cell, ok_elapsed_s));
  if (const auto it = rules_.find(max_runs); it != rules_.end()) return it->second;
  stats::SequentialPlan plan = *rule_plan_;
  plan.max_runs = max_runs;
  plan.first_look_runs = std::min(plan.first_look_runs, max_runs);
  return rules_.emplace(max_runs, stats::SequentialRule(plan)).first->second;
}

bool DecidedComparisons::decided_or_own_target(
    std::size_t cell, const std::vector<std::vector<double>>& ok_elapsed_s) {
  // Never more runs than the cell's own target alone would make: a decision only stops earlier.
  const bool own = budget_.met(cell, ok_elapsed_s);
  if (!rule_plan_) return own;
  if (const auto index = comparison_of_test_cell_[cell])
    return decided(look(comparisons_[*index], ok_elapsed_s)) || own;
  const std::vector<std::size_t>& mine = comparisons_of_reference_cell_[cell];
  if (mine.empty()) return own;
  for (const std::size_t index : mine) {
    if (!decided(look(comparisons_[index], ok_elapsed_s))) return own;
  }
  return true;  // the baseline: every comparison it is in is decided
}

bool DecidedComparisons::enough(std::size_t cell,
                                const std::vector<std::vector<double>>& ok_elapsed_s) {
  const bool stop = decided_or_own_target(cell, ok_elapsed_s);
  if (!stop) budget_.count_run(cell);
  return stop;
}

std::vector<std::string> DecidedComparisons::decisions(
    const std::vector<std::vector<double>>& ok_elapsed_s,
    std::vector<report::RuleDecision>* rule_decisions) {
  std::vector<std::string> lines;
  if (!rule_plan_) return lines;
  for (Comparison& comparison : comparisons_) {
    look(comparison, ok_elapsed_s);
    // A comparison whose cells never both ran: the budget they had.
    if (comparison.rule == nullptr) comparison.rule = &rule_for(comparison, ok_elapsed_s);
    const stats::SequentialPlan& plan = comparison.rule->plan();
    const config::Cell& cell = plan_.cells[comparison.test_cell];
    if (rule_decisions != nullptr) {
      rule_decisions->push_back({plan_.tests[cell.test].name,
                                 config_.inputs[cell.input].path.string(),
                                 std::string(to_string(cell.sink)), comparison.last, plan});
    }
    lines.push_back(fmt::format("{} against '{}': {}",
                                cell_label(plan_, config_, comparison.test_cell),
                                plan_.tests[plan_.cells[comparison.reference_cell].test].name,
                                report::decision_phrase(comparison.last, plan)));
  }
  return lines;
}

}  // namespace iobench::run
