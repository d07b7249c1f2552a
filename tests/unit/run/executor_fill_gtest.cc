// A time to fill (config "repeats": {"min", "max", "fill_s"}; bench's default, docs/bench.md,
// "How many runs"), through the fake launcher: a cell runs as many times as fill the time at
// its first run's pace, between min and max; a comparison's budget is the smaller of its two
// cells'; a cell whose runs never end ok stops after three times its budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "driver/run/run_budget.hpp"
#include "tests/unit/run/executor_fixture.hpp"

namespace iobench::run::executor_test {
namespace {

Script taking(double elapsed_s) {
  Script script = ok_copy();
  script.elapsed_s = elapsed_s;
  return script;
}

constexpr const char* kFill3s = R"("repeats": {"min": 10, "max": 50, "fill_s": 3}, "warmup": 0, )";

TEST(RunsToFill, IsTheTimeOverTheFirstRunRoundedDownBetweenMinAndMax) {
  config::Plan plan;
  plan.repeats_min = 10;
  plan.repeats = 50;
  plan.fill_s = 3;
  EXPECT_EQ(runs_to_fill(plan, 0.25), 12U);
  EXPECT_EQ(runs_to_fill(plan, 0.2001), 14U);  // 14.99 runs: rounded down, as hyperfine
  EXPECT_EQ(runs_to_fill(plan, 0.1999), 15U);
  EXPECT_EQ(runs_to_fill(plan, 1.0), 10U);    // at least min
  EXPECT_EQ(runs_to_fill(plan, 0.001), 50U);  // at most max
  EXPECT_EQ(runs_to_fill(plan, 0.0), 50U);    // too short to time
}

TEST_F(ExecutorTest, ACellRunsAsManyTimesAsFillTheTimeAtItsFirstRunsPace) {
  FakeLauncher launcher([](const std::string& name, int nth) {
    // The first measured run (call 1, after the verification run) sets the count (0.25 s: 12
    // runs); later ones, faster, do not change it.
    return taking(name == "a" && nth <= 1 ? 0.25 : 0.1);
  });
  const MatrixTotals totals =
      run(std::string(kFill3s) + R"("strategies": [{"name": "a", "command": ["a"]}])", launcher);
  EXPECT_EQ(rows().size(), 12U);
  EXPECT_EQ(totals.runs_saved, 38U);
  EXPECT_TRUE(totals.decisions.empty());
}

TEST_F(ExecutorTest, EachCellFillsTheTimeAtItsOwnPaceWithoutAComparison) {
  FakeLauncher launcher(
      [](const std::string& name, int) { return taking(name == "a" ? 0.1 : 1.5); });
  run(std::string(kFill3s) +
          R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
             "decide": false)",
      launcher);
  EXPECT_EQ(rows_of(rows(), "a"), 30);
  EXPECT_EQ(rows_of(rows(), "b"), 10);  // 2 runs fill 3 s: min 10
}

TEST_F(ExecutorTest, AComparisonsBudgetIsTheSmallerOfItsTwoCells) {
  // Same distribution on both sides, spread 20 %, b's cycle two runs on from a's, so the round
  // pairs differ too: never different, never within ±1 %. a's first run fills 3 s in 16 runs,
  // b's in 12: the rule's budget is 12, said in its ending.
  FakeLauncher launcher([](const std::string& name, int nth) {
    const double first = name == "a" ? 0.19 : 0.25;
    const int step = (nth * 7 + (name == "b" ? 2 : 0)) % 5;
    return taking(nth <= 1 ? first : 0.2 * (1 + 0.2 * step / 4));  // call 0: verify
  });
  const MatrixTotals totals =
      run(std::string(kFill3s) +
              R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
                 "baseline": "a", "decide": true)",
          launcher);
  ASSERT_EQ(totals.decisions.size(), 1U);
  EXPECT_EQ(totals.decisions[0],
            "'b' on in.txt (pipe sink) against 'a': budget of 12 runs spent, undecided");
  ASSERT_EQ(totals.rule_decisions.size(), 1U);
  EXPECT_EQ(totals.rule_decisions[0].plan.max_runs, 12U);
  EXPECT_EQ(rows_of(rows(), "b"), 12);
  EXPECT_EQ(rows_of(rows(), "a"), 12) << "a spent budget ends the comparison: the baseline too";
}

TEST_F(ExecutorTest, ADecidedComparisonStopsBeforeTheTimeIsFilled) {
  FakeLauncher launcher([](const std::string& name, int nth) {
    return taking((name == "b" ? 0.12 : 0.1) * (1 + 0.001 * nth));
  });
  const MatrixTotals totals =
      run(std::string(kFill3s) +
              R"("strategies": [{"name": "a", "command": ["a"]}, {"name": "b", "command": ["b"]}],
                 "baseline": "a")",
          launcher);
  // The budget is 24 runs (3 s over b's first 0.12012 s, rounded down as hyperfine does): the
  // O'Brien-Fleming-like spending lets the round pairs' signs, all one way, through first at 11
  // pairs (2/2048), where a budget of 10 lets them at 8 (and unpaired runs at 8 and 6).
  ASSERT_EQ(totals.decisions.size(), 1U);
  EXPECT_EQ(totals.decisions[0],
            "'b' on in.txt (pipe sink) against 'a': decided: different after 11 runs");
  EXPECT_EQ(totals.rule_decisions[0].plan.max_runs, 24U);
  EXPECT_EQ(rows_of(rows(), "a"), 11);
  EXPECT_EQ(rows_of(rows(), "b"), 11);
}

TEST_F(ExecutorTest, ACellWithoutAnOkRunStopsAfterThreeTimesTheLeastRuns) {
  FakeLauncher launcher([](const std::string&, int) {
    Script script = taking(0.01);
    script.exit_code = 1;
    return script;
  });
  const MatrixTotals totals =
      run(std::string(kFill3s) + R"("strategies": [{"name": "a", "command": ["a"]}])", launcher);
  EXPECT_EQ(rows().size(), 30U) << "no ok run, no pace: min 10, three times over";
  EXPECT_EQ(totals.bad_rows, 30U);
  ASSERT_FALSE(totals.warnings.empty());
  EXPECT_EQ(std::count_if(totals.warnings.begin(), totals.warnings.end(),
                          [](const std::string& w) { return w.find("ok runs of the") != w.npos; }),
            1);
  EXPECT_EQ(totals.warnings.back(),
            "'a' on in.txt (pipe sink): 0 ok runs of the 10 that fill 3 s, after 30 runs; the "
            "others were disturbed or failed");
}

TEST_F(ExecutorTest, ACellThatReachedItsCountIsNotSaidToBeCutShort) {
  FakeLauncher launcher([](const std::string&, int) { return taking(0.25); });
  const MatrixTotals totals =
      run(std::string(kFill3s) + R"("strategies": [{"name": "a", "command": ["a"]}])", launcher);
  EXPECT_EQ(rows().size(), 12U);
  EXPECT_TRUE(totals.warnings.empty()) << totals.warnings.front();
}

// hyperfine divides its 3 s by the first run's time plus its prepare command's: 0.25 + 0.25 s
// make 6 runs (min 2 here), not the run's 12.
TEST_F(ExecutorTest, APreparesTimeCountsInThePaceAsHyperfineCountsIt) {
  FakeLauncher launcher([](const std::string&, int) { return taking(0.25); });
  run(R"("repeats": {"min": 2, "max": 50, "fill_s": 3}, "warmup": 0, )"
      R"("strategies": [{"name": "a", "command": ["a"], "prepare": "p"}])",
      launcher);
  EXPECT_EQ(rows().size(), 6U);
}

}  // namespace
}  // namespace iobench::run::executor_test
