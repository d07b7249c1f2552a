// The sequential rule in the run loop (config "decide"; docs/reports.md, "Deciding a
// comparison"), through the fake launcher: a test stops once its comparison with the baseline is
// decided, the baseline once every comparison is, and each ending is said in one line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

constexpr const char* kTwoTests =
    R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
       "baseline": "a", "warmup": 0, )";

// a takes 1.000, 1.001, ... s, b 20 % more: no overlap, so the first look that can decide does.
// Interleaved, the rule judges the round pairs (docs/reports.md): eight pairs' signs alone reach
// 2/256, within the level of the look at 8 runs (0.0195); seven reach only 2/128, above the
// 0.0123 of the look at 7. Unpaired (shuffled), six runs a side do.
Script twenty_percent_slower(const std::string& name, int nth) {
  Script script = ok_copy();
  script.elapsed_s = (name == "b" ? 1.2 : 1.0) * (1 + 0.001 * nth);
  return script;
}

TEST_F(ExecutorTest, ADecidedDifferenceStopsBothCells) {
  FakeLauncher launcher(twenty_percent_slower);
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": 10, "decide": true)", launcher);
  EXPECT_EQ(rows_of(rows(), "a"), 8);
  EXPECT_EQ(rows_of(rows(), "b"), 8);
  EXPECT_EQ(totals.runs_saved, 4U);
  ASSERT_EQ(totals.decisions.size(), 1U);
  EXPECT_EQ(totals.decisions[0],
            "'b' on in.txt (pipe sink) against 'a': decided: different after "
            "8 runs");
  ASSERT_EQ(totals.rule_decisions.size(), 1U);
  EXPECT_TRUE(totals.rule_decisions[0].plan.paired);
}

TEST_F(ExecutorTest, ADuetsRoundsAreJudgedPaired) {
  FakeLauncher launcher(twenty_percent_slower);
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": 10, "decide": true, "order": "duet")", launcher);
  EXPECT_EQ(rows_of(rows(), "b"), 8);
  ASSERT_EQ(totals.rule_decisions.size(), 1U);
  EXPECT_TRUE(totals.rule_decisions[0].plan.paired);
}

TEST_F(ExecutorTest, ShuffledRunsAreJudgedUnpaired) {
  FakeLauncher launcher(twenty_percent_slower);
  const MatrixTotals totals = run(
      std::string(kTwoTests) + R"("repeats": 10, "decide": true, "order": "shuffle")", launcher);
  EXPECT_EQ(rows_of(rows(), "b"), 6);
  ASSERT_EQ(totals.rule_decisions.size(), 1U);
  EXPECT_FALSE(totals.rule_decisions[0].plan.paired);
  EXPECT_EQ(totals.rule_decisions[0].result.runs, 6U);
}

TEST_F(ExecutorTest, EachEndingIsHandedOnForBenchsVerdicts) {
  FakeLauncher launcher(twenty_percent_slower);
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": 10, "decide": true)", launcher);
  ASSERT_EQ(totals.rule_decisions.size(), 1U);
  const report::RuleDecision& decision = totals.rule_decisions[0];
  EXPECT_EQ(decision.test, "b");
  EXPECT_EQ(std::filesystem::path(decision.input).filename(), "in.txt");
  EXPECT_EQ(decision.sink, "pipe");
  EXPECT_EQ(decision.result.decision, stats::Decision::kDifferent);
  EXPECT_EQ(decision.result.runs, 8U);
  EXPECT_EQ(decision.plan.max_runs, 10U);
}

TEST_F(ExecutorTest, WithoutDecideEveryCellRunsItsRepeats) {
  FakeLauncher launcher(twenty_percent_slower);
  const MatrixTotals totals = run(std::string(kTwoTests) + R"("repeats": 10)", launcher);
  EXPECT_EQ(rows().size(), 20U);
  EXPECT_EQ(totals.runs_saved, 0U);
  EXPECT_TRUE(totals.decisions.empty());
}

TEST_F(ExecutorTest, TimesWithinTheMarginAreDecidedEquivalent) {
  // b's times are a's in another order, runs 0.1 % apart: the pairs' ratios lie within ±0.5 %,
  // some each way, and the interval at the first look that has one (8 pairs) is within ±1 %.
  FakeLauncher launcher([](const std::string& name, int nth) {
    Script script = ok_copy();
    script.elapsed_s = 1.0 + 0.001 * ((name == "b" ? nth + 5 : nth) % 10);
    return script;
  });
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": 10, "decide": true)", launcher);
  EXPECT_EQ(rows_of(rows(), "a"), 8);
  EXPECT_EQ(rows_of(rows(), "b"), 8);
  ASSERT_EQ(totals.decisions.size(), 1U);
  EXPECT_EQ(totals.decisions[0],
            "'b' on in.txt (pipe sink) against 'a': decided: equivalent within ±1 % after 8 runs");
}

TEST_F(ExecutorTest, ThePrecisionTargetStillStopsACellWhoseComparisonIsUndecided) {
  // a is constant, so its median is precise from the third run; b swings ±20 %. The rule only
  // stops cells earlier (docs/reports.md, "Deciding a comparison"): a stops at min as without it
  // (ExecutorTest.APreciseCellStopsAtMinAndANoisyOneRunsToMax), b runs to max, and the
  // comparison, whose looks end with a's runs, is said to be undecided.
  FakeLauncher launcher([](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "b") script.elapsed_s = nth % 2 == 0 ? 0.2 : 0.3;
    return script;
  });
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": {"min": 3, "max": 6, "ci_pct": 2})", launcher);
  EXPECT_EQ(rows_of(rows(), "a"), 3);
  EXPECT_EQ(rows_of(rows(), "b"), 6);
  ASSERT_EQ(totals.decisions.size(), 1U);
  EXPECT_EQ(totals.decisions[0], "'b' on in.txt (pipe sink) against 'a': undecided after 3 runs");
}

TEST_F(ExecutorTest, DecideFalseKeepsThePrecisionTargetAlone) {
  FakeLauncher launcher([](const std::string& name, int nth) {
    Script script = ok_copy();
    if (name == "b") script.elapsed_s = nth % 2 == 0 ? 0.2 : 0.3;
    return script;
  });
  const MatrixTotals totals =
      run(std::string(kTwoTests) + R"("repeats": {"min": 3, "max": 6, "ci_pct": 2},
          "decide": false)",
          launcher);
  EXPECT_EQ(rows_of(rows(), "a"), 3);
  EXPECT_EQ(rows_of(rows(), "b"), 6);
  EXPECT_TRUE(totals.decisions.empty());
}

}  // namespace
}  // namespace iobench::run::executor_test
