// driver/run/run_budget: a cell's own budget of measured runs. Without a time to fill, the plan's
// repeats or the precision target; with one, the runs that fill it at the first ok run's pace
// (its prepare time added), the least repeats before that, and at most three times the count in
// runs granted, after which the cell is said to be cut short.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/run/run_budget.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

const std::string kFill3s =
    R"("strategies": [{"name": "a", "command": ["a"], "verify": false}],
       "repeats": {"min": 10, "max": 50, "fill_s": 3}, "warmup": 0)";

TEST(RunBudget, WithoutATimeToFillIsThePlansRepeats) {
  const Matrix m(kTwoCommands);
  const RunBudget budget(m.plan, m.config);
  const std::vector<std::vector<double>> ok = {{0.5}, {}};
  EXPECT_EQ(budget.most_runs(0, ok), 2U);
  EXPECT_FALSE(budget.met(0, ok));
  EXPECT_TRUE(budget.met(0, {{0.5, 0.5}, {}}));
}

TEST(RunBudget, WithATimeToFillIsTheLeastRepeatsUntilTheFirstOkRun) {
  const Matrix m(kFill3s);
  const RunBudget budget(m.plan, m.config);
  EXPECT_EQ(budget.most_runs(0, {{}}), 10U);
  EXPECT_EQ(budget.most_runs(0, {{0.25}}), 12U);  // 3 s at 0.25 s a run
}

TEST(RunBudget, ThePrepareTimeCountsInTheFirstRunsPace) {
  const Matrix m(kFill3s);
  RunBudget budget(m.plan, m.config);
  budget.add_to_first_run(0, 0.05);
  EXPECT_EQ(budget.most_runs(0, {{0.25}}), 10U);  // 3 s at 0.30 s a run
}

TEST(RunBudget, StopsACellAfterThreeTimesItsCountOfRunsAndSaysSo) {
  const Matrix m(kFill3s);
  RunBudget budget(m.plan, m.config);
  const std::vector<std::vector<double>> ok = {{0.25, 0.25}};  // 12 runs fill 3 s
  for (int run = 0; run < 35; ++run) budget.count_run(0);
  EXPECT_FALSE(budget.met(0, ok));
  EXPECT_TRUE(budget.cut_short(ok).empty());
  budget.count_run(0);
  EXPECT_TRUE(budget.met(0, ok));
  EXPECT_EQ(budget.cut_short(ok),
            std::vector<std::string>{"'a' on in.txt (pipe sink): 2 ok runs of the 12 that fill 3 "
                                     "s, after 36 runs; the others were disturbed or failed"});
}

TEST(RunBudget, ACellWithItsCountOfOkRunsIsNotCutShort) {
  const Matrix m(kFill3s);
  RunBudget budget(m.plan, m.config);
  const std::vector<std::vector<double>> ok = {std::vector<double>(12, 0.25)};
  for (int run = 0; run < 40; ++run) budget.count_run(0);
  EXPECT_TRUE(budget.met(0, ok));
  EXPECT_TRUE(budget.cut_short(ok).empty());
}

}  // namespace
}  // namespace iobench::run::step_test
