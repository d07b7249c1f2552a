// --dry-run's first line says how long the runs take, as far as a plan can tell (issue 48: a
// plan of 1,000,000 repeats said nothing of it).
#include <gtest/gtest.h>

#include <string>

#include "driver/config/plan.hpp"
#include "driver/run/dry_run.hpp"

namespace iobench::run {
namespace {

config::Plan plan_of(std::size_t cells, std::size_t runs, double fill_s, int repeats = 1) {
  config::Plan plan;
  plan.cells.resize(cells);
  plan.runs.resize(runs);
  plan.fill_s = fill_s;
  plan.repeats = repeats;
  return plan;
}

// Every cell runs all its repeats.
std::string whole_plan_text(const config::Plan& plan) {
  return duration_text(plan, plan.repeats);
}

TEST(DryRun, SaysTheLeastTimeAndWhatEachMillisecondOfARunAdds) {
  EXPECT_EQ(whole_plan_text(plan_of(1, 1'000'001, 0)),
            "at least 17 min (iobench's own 1 ms a run), and 17 min more for each millisecond a "
            "run takes");
  EXPECT_EQ(whole_plan_text(plan_of(4, 40, 0)),
            "at least 0 s (iobench's own 1 ms a run), and 0 s more for each millisecond a run "
            "takes");
  EXPECT_EQ(whole_plan_text(plan_of(1, 10'000'000, 0)),
            "at least 2.8 h (iobench's own 1 ms a run), and 2.8 h more for each millisecond a run "
            "takes");
}

// A precision target of {"min": 2, "max": 1000000} said "at least 33 min" of a plan whose cells
// may all stop after 2 runs: the time is a range from the fewest runs to the most.
TEST(DryRun, CellsThatMayStopEarlyGiveARange) {
  EXPECT_EQ(duration_text(plan_of(2, 2'000'002, 0, 1'000'000), 2),
            "0 s to 33 min (iobench's own 1 ms a run; a cell stops after 2 to 1000000 repeats), "
            "and 0 s to 33 min more for each millisecond a run takes");
  EXPECT_EQ(duration_text(plan_of(10, 1'000'010, 0, 100'000), 50'000),
            "8 min to 17 min (iobench's own 1 ms a run; a cell stops after 50000 to 100000 "
            "repeats), and 8 min to 17 min more for each millisecond a run takes");
}

TEST(DryRun, TheFewestRepeatsAreThePrecisionTargetsMinOrTheRulesFirstLook) {
  config::Config config;
  config::Plan plan = plan_of(2, 2'000'002, 0, 1'000'000);
  plan.repeats_min = 1'000'000;
  EXPECT_EQ(fewest_repeats(config, plan), 1'000'000);  // fixed repeats: every cell runs them all
  plan.ci_pct = 2;
  plan.repeats_min = 3;
  EXPECT_EQ(fewest_repeats(config, plan), 3);
  plan.ci_pct = 0;
  plan.repeats_min = 1'000'000;
  config.decide = true;
  EXPECT_EQ(fewest_repeats(config, plan), 1'000'000);  // no baseline: nothing is decided
  plan.baseline_test = 0;
  EXPECT_EQ(fewest_repeats(config, plan), 5);  // the rule's first look without a target
}

TEST(DryRun, WithATimeToFillSaysTheMeasuredTime) {
  EXPECT_EQ(whole_plan_text(plan_of(2, 2002, 15)),
            "about 30 s of measured runs (each cell fills 15 s)");
  EXPECT_EQ(whole_plan_text(plan_of(100, 2002, 3)),
            "about 5 min of measured runs (each cell fills 3 s)");
}

}  // namespace
}  // namespace iobench::run
