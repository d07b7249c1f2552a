// driver/run/disturbance_step: a measured run's disturbance judged into its row, disturbed runs
// queued under `disturbance: rerun` (not under `flag`), where a round ends, and which run is
// re-run next: none for a cell that needs no more, and none past the cell's budget (twice the
// repeats), which is said once with the worst figure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/run/disturbance_step.hpp"
#include "tests/unit/run/step_fixture.hpp"

namespace iobench::run::step_test {
namespace {

// The run's tree waited 0.2 s for a CPU in a run of 0.25 s (0.8 CPUs): disturbed at the default
// threshold. Others' 0.9 CPU seconds are context.
const RunDisturbance kBusy{0.9, 0.0, 0.004, 2, 0.2, WaitScope::kTree, std::nullopt};

runfile::RunRow ok_row() {
  runfile::RunRow row;
  row.test = "a";
  row.elapsed_s = 0.25;
  return row;
}

const auto kNeedsMore = [](std::size_t) { return false; };

// The step on a matrix of kTwoCommands and `fields` (runs: a 1, a 2, b 1, b 2).
struct Step {
  explicit Step(const std::string& fields = "") : m(kTwoCommands + fields) {}
  // An ok run of 0.25 s at plan index `run`, judged with `disturbance`.
  runfile::RunRow judge(std::size_t run, const std::optional<RunDisturbance>& disturbance) {
    runfile::RunRow row = ok_row();
    step.judge(run, row, disturbance);
    return row;
  }
  Matrix m;
  Progress progress{0, false};
  DisturbanceStep step{m.plan, m.config, progress};
};

TEST(DisturbanceStep, MarksADisturbedRunAndQueuesItUntilTheRoundEnds) {
  Step s;
  const runfile::RunRow row = s.judge(0, kBusy);
  EXPECT_EQ(row.status, runfile::RunStatus::kDisturbed);
  EXPECT_EQ(row.others_cpu_s, 0.9);
  EXPECT_EQ(row.wait_cpu_s, 0.2);
  EXPECT_TRUE(s.step.waiting());
  EXPECT_FALSE(s.step.round_ends_before(s.m.plan.runs[0]));  // another run of repeat 1
  EXPECT_TRUE(s.step.round_ends_before(s.m.plan.runs[1]));   // repeat 2
  EXPECT_EQ(s.step.take_rerun(kNeedsMore, {{}, {}}), std::optional<std::size_t>(0));
  EXPECT_FALSE(s.step.waiting());
  EXPECT_FALSE(s.step.round_ends_before(s.m.plan.runs[1]));
}

TEST(DisturbanceStep, FlagMarksWithoutQueueing) {
  Step s(R"(, "disturbance": "flag")");
  EXPECT_EQ(s.judge(0, kBusy).status, runfile::RunStatus::kDisturbed);
  EXPECT_FALSE(s.step.waiting());
}

// Others ran `others_cpu_s` during a run of 0.25 s in which nothing of the run waited.
RunDisturbance others_ran(double others_cpu_s) {
  RunDisturbance d{others_cpu_s, 0.0, kExactResolution_s, 2, 0.0, WaitScope::kTree, std::nullopt};
  d.others_measured = true;
  return d;
}

TEST(DisturbanceStep, ABurstIsJudgedAgainstTheCalmOfTheRunsBeforeIt) {
  Step s;
  // The first run has no session to be judged against; a steady CPU of others is the calm (each
  // run counted at the most others can have run: its figure plus the 4 ms resolution).
  EXPECT_EQ(s.judge(0, others_ran(0.25)).status, runfile::RunStatus::kOk);
  EXPECT_EQ(s.judge(2, others_ran(0.24)).status, runfile::RunStatus::kOk);
  EXPECT_EQ(s.judge(1, others_ran(0.25)).status, runfile::RunStatus::kOk);
  EXPECT_FALSE(s.step.waiting());
  // A second CPU of others for the whole run: 0.25 s beyond the calm, which allows 0.2 of a CPU.
  EXPECT_EQ(s.judge(3, others_ran(0.5)).status, runfile::RunStatus::kDisturbed);
  EXPECT_TRUE(s.step.waiting());
  ASSERT_EQ(s.progress.warnings().size(), 1U);
  EXPECT_NE(s.progress.warnings()[0].find(
                "was disturbed: others ran 500.0 ms of its 250.0 ms (2.00 of a CPU), where "
                "this session's calm runs saw 0.98, more than the 0.2 of a CPU beyond the calm "
                "that the burst rule allows (twice the threshold)"),
            std::string::npos)
      << s.progress.warnings()[0];
}

TEST(DisturbanceStep, ARunWithoutFiguresStaysAsItWas) {
  Step s;
  const runfile::RunRow row = s.judge(0, std::nullopt);
  EXPECT_EQ(row.status, runfile::RunStatus::kOk);
  EXPECT_FALSE(row.others_cpu_s.has_value());
  EXPECT_FALSE(s.step.waiting());
}

TEST(DisturbanceStep, ACellThatNeedsNoMoreIsNotReRun) {
  Step s;
  s.judge(2, kBusy);  // b's
  std::vector<std::size_t> asked;
  const auto needs_none = [&asked](std::size_t cell) {
    asked.push_back(cell);
    return true;
  };
  EXPECT_EQ(s.step.take_rerun(needs_none, {{}, {}}), std::nullopt);
  EXPECT_EQ(asked, std::vector<std::size_t>{1});
  EXPECT_FALSE(s.step.waiting());
}

TEST(DisturbanceStep, ReRunsACellAtMostTwiceItsRepeatsThenSaysSoOnce) {
  Step s;
  for (int rerun = 0; rerun < 6; ++rerun) s.judge(1, kBusy);
  for (int rerun = 0; rerun < 4; ++rerun)
    EXPECT_EQ(s.step.take_rerun(kNeedsMore, {{0.25}, {}}), std::optional<std::size_t>(1));
  // The first disturbed run of the cell was said, with its figure and the settings.
  ASSERT_EQ(s.progress.warnings().size(), 1U);
  EXPECT_EQ(s.progress.warnings()[0],
            "a on in.txt (pipe sink): run 0 was disturbed: its processes waited 200 ms of its 250 "
            "ms for a CPU, more than the 29.00 ms the rule allows (0.1 of a CPU); it is left out "
            "and run again. The rule: --disturbance-threshold CPUS or "
            "\"disturbance_threshold_cpus\"; off with --disturbance off, \"disturbance\": "
            "\"off\" or IOBENCH_DISTURBANCE=off (docs/driver.md, \"Disturbance\")");
  EXPECT_EQ(s.step.take_rerun(kNeedsMore, {{0.25}, {}}), std::nullopt);
  EXPECT_EQ(s.step.take_rerun(kNeedsMore, {{0.25}, {}}), std::nullopt);
  EXPECT_FALSE(s.step.waiting());
  ASSERT_EQ(s.progress.warnings().size(), 2U);
  EXPECT_EQ(s.progress.warnings()[1],
            "a on in.txt (pipe sink): its re-run budget of 4 is spent, so 1 ok runs count; at "
            "worst its processes waited 200 ms of its 250 ms for a CPU (docs/driver.md, "
            "\"Disturbance\")");
}

}  // namespace
}  // namespace iobench::run::step_test
