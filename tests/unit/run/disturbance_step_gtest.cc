// driver/run/disturbance_step: a measured run's disturbance judged into its row, disturbed runs
// queued under `disturbance: rerun` (not under `flag`), where a round ends, and which run is
// re-run next: none for a cell that needs no more, and none past the cell's budget (twice the
// repeats), which is said once with the worst figure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/run/disturbance_step.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::step_test {
namespace {

// 0.9 CPU seconds of others in a run of 0.25 s: 3.6 CPUs, disturbed at any threshold.
constexpr RunDisturbance kBusy{0.9, 0.0, 0.004};

RunRow ok_row() {
  RunRow row;
  row.test = "a";
  row.elapsed_s = 0.25;
  return row;
}

const auto kNeedsMore = [](std::size_t) { return false; };

TEST(DisturbanceStep, MarksADisturbedRunAndQueuesItUntilTheRoundEnds) {
  const Matrix m(kTwoCommands);  // runs: a 1, a 2, b 1, b 2
  Progress progress(0, false);
  DisturbanceStep step(m.plan, m.config, progress);
  RunRow row = ok_row();
  step.judge(0, row, kBusy);
  EXPECT_EQ(row.status, RunStatus::kDisturbed);
  EXPECT_EQ(row.others_cpu_s, 0.9);
  EXPECT_TRUE(step.waiting());
  EXPECT_FALSE(step.round_ends_before(m.plan.runs[0]));  // another run of repeat 1
  EXPECT_TRUE(step.round_ends_before(m.plan.runs[1]));   // repeat 2
  EXPECT_EQ(step.take_rerun(kNeedsMore, {{}, {}}), std::optional<std::size_t>(0));
  EXPECT_FALSE(step.waiting());
  EXPECT_FALSE(step.round_ends_before(m.plan.runs[1]));
}

TEST(DisturbanceStep, FlagMarksWithoutQueueing) {
  const Matrix m(kTwoCommands + R"(, "disturbance": "flag")");
  Progress progress(0, false);
  DisturbanceStep step(m.plan, m.config, progress);
  RunRow row = ok_row();
  step.judge(0, row, kBusy);
  EXPECT_EQ(row.status, RunStatus::kDisturbed);
  EXPECT_FALSE(step.waiting());
}

TEST(DisturbanceStep, ARunWithoutFiguresStaysAsItWas) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  DisturbanceStep step(m.plan, m.config, progress);
  RunRow row = ok_row();
  step.judge(0, row, std::nullopt);
  EXPECT_EQ(row.status, RunStatus::kOk);
  EXPECT_FALSE(row.others_cpu_s.has_value());
  EXPECT_FALSE(step.waiting());
}

TEST(DisturbanceStep, ACellThatNeedsNoMoreIsNotReRun) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  DisturbanceStep step(m.plan, m.config, progress);
  RunRow row = ok_row();
  step.judge(2, row, kBusy);  // b's
  std::vector<std::size_t> asked;
  const auto needs_none = [&asked](std::size_t cell) {
    asked.push_back(cell);
    return true;
  };
  EXPECT_EQ(step.take_rerun(needs_none, {{}, {}}), std::nullopt);
  EXPECT_EQ(asked, std::vector<std::size_t>{1});
  EXPECT_FALSE(step.waiting());
}

TEST(DisturbanceStep, ReRunsACellAtMostTwiceItsRepeatsThenSaysSoOnce) {
  const Matrix m(kTwoCommands);
  Progress progress(0, false);
  DisturbanceStep step(m.plan, m.config, progress);
  for (int rerun = 0; rerun < 6; ++rerun) {
    RunRow row = ok_row();
    step.judge(1, row, kBusy);
  }
  for (int rerun = 0; rerun < 4; ++rerun)
    EXPECT_EQ(step.take_rerun(kNeedsMore, {{0.25}, {}}), std::optional<std::size_t>(1));
  EXPECT_TRUE(progress.warnings().empty());
  EXPECT_EQ(step.take_rerun(kNeedsMore, {{0.25}, {}}), std::nullopt);
  EXPECT_EQ(step.take_rerun(kNeedsMore, {{0.25}, {}}), std::nullopt);
  EXPECT_FALSE(step.waiting());
  EXPECT_EQ(progress.warnings(),
            std::vector<std::string>{
                "a on in.txt (pipe sink): others kept up to 3.60 CPUs busy during its disturbed "
                "runs; its re-run budget of 4 is spent, so 1 ok runs count (docs/driver.md, "
                "\"Disturbance\")"});
}

}  // namespace
}  // namespace iobench::step_test
