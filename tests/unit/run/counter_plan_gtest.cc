// What a run makes of the spawner's counters: cells filled in schema order, empty (not 0) when not
// counted, counted_pct the smallest share; the warning and meta entry for the uncounted.
#include <gtest/gtest.h>

#include <string>

#include "driver/run/counter_plan.hpp"
#include "driver/run/measurement.hpp"
#include "tests/unit/run/exited_ok.hpp"

namespace iobench::run {
namespace {

using iobench::test::exited_ok;

TEST(RunCounters, FillTheirCellsAndLeaveTheUncountedEmpty) {
  spawn::SpawnResult result = exited_ok();
  result.counters = {{"context-switches", 12.0, 1.0},
                     {"cycles", std::nullopt, 0.0},
                     {"syscalls", 3079.4, 1.0},
                     {"instructions", 2000.0, 0.25}};
  runfile::RunRow row;
  fill_measurements(row, result);
  EXPECT_EQ(row.status, runfile::RunStatus::kOk);
  EXPECT_EQ(row.counters[index(runfile::Counter::kSyscalls)], 3079u);
  EXPECT_EQ(row.counters[index(runfile::Counter::kContextSwitches)], 12u);
  EXPECT_FALSE(row.counters[index(runfile::Counter::kCycles)].has_value()) << "empty, never 0";
  EXPECT_FALSE(row.counters[index(runfile::Counter::kPageFaults)].has_value()) << "not asked for";
  ASSERT_TRUE(row.counted_pct.has_value());
  EXPECT_DOUBLE_EQ(*row.counted_pct, 25.0);  // instructions was multiplexed: a quarter counted

  runfile::RunRow nothing_counted;
  spawn::SpawnResult none = exited_ok();
  none.counters = {{"cycles", std::nullopt, 0.0}};
  fill_measurements(nothing_counted, none);
  EXPECT_FALSE(nothing_counted.counted_pct.has_value());
}

TEST(RunCounters, TheWarningNamesEachUnavailableCounterWithItsReason) {
  CountingPlan plan;
  plan.requested = {"syscalls", "cycles", "instructions"};
  plan.counted = {"syscalls"};
  plan.unavailable = {{"cycles", 2, "ENOENT: no PMU"}, {"instructions", 2, "ENOENT: no PMU"}};
  EXPECT_EQ(counting_warning(plan),
            "counters not counted on this machine, their cells stay empty: cycles, instructions "
            "(ENOENT: no PMU)");
  const auto meta = counter_availability(plan);
  ASSERT_EQ(meta.unavailable.size(), 2u);
  EXPECT_EQ(meta.unavailable[0],
            std::make_pair(std::string("cycles"), std::string("ENOENT: no PMU")));
  EXPECT_EQ(meta.counted.size(), 1u);
  plan.unavailable.clear();
  EXPECT_EQ(counting_warning(plan), "");
}

}  // namespace
}  // namespace iobench::run
