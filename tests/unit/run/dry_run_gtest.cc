// --dry-run's first line says how long the runs take, as far as a plan can tell (issue 48: a
// plan of 1,000,000 repeats said nothing of it).
#include <gtest/gtest.h>

#include <string>

#include "driver/config/plan.hpp"
#include "driver/run/dry_run.hpp"

namespace iobench::run {
namespace {

config::Plan plan_of(std::size_t cells, std::size_t runs, double fill_s) {
  config::Plan plan;
  plan.cells.resize(cells);
  plan.runs.resize(runs);
  plan.fill_s = fill_s;
  return plan;
}

TEST(DryRun, SaysTheLeastTimeAndWhatEachMillisecondOfARunAdds) {
  EXPECT_EQ(duration_text(plan_of(1, 1'000'001, 0)),
            "at least 17 min (iobench's own 1 ms a run), and 17 min more for each millisecond a "
            "run takes");
  EXPECT_EQ(duration_text(plan_of(4, 40, 0)),
            "at least 0 s (iobench's own 1 ms a run), and 0 s more for each millisecond a run "
            "takes");
  EXPECT_EQ(duration_text(plan_of(1, 10'000'000, 0)),
            "at least 2.8 h (iobench's own 1 ms a run), and 2.8 h more for each millisecond a run "
            "takes");
}

TEST(DryRun, WithATimeToFillSaysTheMeasuredTime) {
  EXPECT_EQ(duration_text(plan_of(2, 2002, 15)),
            "about 30 s of measured runs (each cell fills 15 s)");
  EXPECT_EQ(duration_text(plan_of(100, 2002, 3)),
            "about 5 min of measured runs (each cell fills 3 s)");
}

}  // namespace
}  // namespace iobench::run
