// What a run makes of the spawner's strays: a stray that held the sink makes the row an error;
// each test that leaves strays is named once.
#include <gtest/gtest.h>

#include <string>

#include "driver/run/measurement.hpp"
#include "driver/run/stray_watch.hpp"
#include "tests/unit/run/exited_ok.hpp"

namespace iobench::run {
namespace {

using iobench::test::exited_ok;

TEST(RunStrays, AStrayHoldingTheSinkMakesTheRowAnError) {
  spawn::SpawnResult result = exited_ok();
  result.strays_killed = 1;
  runfile::RunRow row;
  fill_measurements(row, result);
  EXPECT_EQ(row.status, runfile::RunStatus::kOk)
      << "a stray that did not hold the sink: warned, still ok";
  result.stray_held_sink = true;
  fill_measurements(row, result);
  EXPECT_EQ(row.status, runfile::RunStatus::kError);
  EXPECT_FALSE(row.exit_code.has_value());
}

TEST(RunStrays, EachTestIsNamedOnce) {
  StrayWatch watch;
  spawn::SpawnResult result = exited_ok();
  bool held = true;
  EXPECT_EQ(watch.check("clean", result, held), "");
  EXPECT_FALSE(held);
  result.strays_killed = 2;
  const std::string first = watch.check("leaky", result, held);
  EXPECT_NE(first.find("leaky: left 2 processes running"), std::string::npos) << first;
  EXPECT_EQ(watch.check("leaky", result, held), "");
  result.stray_held_sink = true;
  EXPECT_NE(watch.check("leaky", result, held).find("held the sink"), std::string::npos);
  EXPECT_TRUE(held);
}

}  // namespace
}  // namespace iobench::run
