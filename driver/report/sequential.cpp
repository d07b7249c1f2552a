#include "driver/report/sequential.hpp"

#include <fmt/format.h>

namespace iobench::report {

using stats::Decision;

std::string_view to_string(Decision decision) {
  switch (decision) {
    case Decision::kDifferent:
      return "different";
    case Decision::kEquivalent:
      return "equivalent";
    case Decision::kBudget:
      return "budget";
    case Decision::kContinue:
      break;
  }
  return "undecided";
}

std::string_view rule_name(const stats::SequentialPlan& plan) {
  return plan.paired ? "sequential rule on round pairs" : "sequential rule";
}

std::string decision_phrase(const stats::SequentialResult& result,
                            const stats::SequentialPlan& plan) {
  switch (result.decision) {
    case Decision::kDifferent:
      return fmt::format("decided: different after {} runs", result.runs);
    case Decision::kEquivalent:
      return fmt::format("decided: equivalent within ±{:g} % after {} runs", plan.margin * 100,
                         result.runs);
    case Decision::kBudget:
      return fmt::format("budget of {} runs spent, undecided", plan.max_runs);
    case Decision::kContinue:
      break;
  }
  return fmt::format("undecided after {} runs", result.runs);
}

}  // namespace iobench::report
