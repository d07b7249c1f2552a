// How the sequential rule's decisions are said (driver/report/sequential.hpp): one phrase and one
// name for each outcome (the rule itself: tests/unit/stats/sequential_gtest.cc).
#include <gtest/gtest.h>

#include "driver/report/sequential.hpp"

namespace iobench::report {
namespace {

stats::SequentialResult result(stats::Decision decision, std::size_t runs) {
  stats::SequentialResult r;
  r.decision = decision;
  r.runs = runs;
  return r;
}

TEST(DecisionPhrase, SaysEachOutcome) {
  const stats::SequentialPlan plan{5, 10, 0.05, 0.01};
  EXPECT_EQ(decision_phrase(result(stats::Decision::kDifferent, 6), plan),
            "decided: different after 6 runs");
  EXPECT_EQ(decision_phrase(result(stats::Decision::kEquivalent, 10), plan),
            "decided: equivalent within ±1 % after 10 runs");
  EXPECT_EQ(decision_phrase(result(stats::Decision::kBudget, 10), plan),
            "budget of 10 runs spent, undecided");
  EXPECT_EQ(decision_phrase(result(stats::Decision::kContinue, 7), plan), "undecided after 7 runs");
  EXPECT_EQ(decision_phrase(result(stats::Decision::kEquivalent, 20),
                            stats::SequentialPlan{5, 20, 0.05, 0.025}),
            "decided: equivalent within ±2.5 % after 20 runs");
}

TEST(DecisionPhrase, NamesThePairedRule) {
  stats::SequentialPlan plan{5, 10, 0.05, 0.01};
  EXPECT_EQ(rule_name(plan), "sequential rule");
  plan.paired = true;
  EXPECT_EQ(rule_name(plan), "sequential rule on round pairs");
}

TEST(DecisionPhrase, NamesEachDecision) {
  EXPECT_EQ(to_string(stats::Decision::kDifferent), "different");
  EXPECT_EQ(to_string(stats::Decision::kEquivalent), "equivalent");
  EXPECT_EQ(to_string(stats::Decision::kBudget), "budget");
  EXPECT_EQ(to_string(stats::Decision::kContinue), "undecided");
}

}  // namespace
}  // namespace iobench::report
