// driver/run/progress: the progress line's text (format_progress_line) — run i of N, the test,
// elapsed time and an ETA from the mean run so far, cut to fit a terminal line — and how the
// count and the total move as runs start, are re-run or are no longer needed.
#include <gtest/gtest.h>

#include <string>

#include "driver/run/progress.hpp"

namespace iobench::run {
namespace {

// A re-run once showed its planned index ([48/144] then [32/144]) against a total that never
// grew (144 of 360 runs): the count is the runs started, the total the plan's plus each re-run.
TEST(Progress, CountsRunsAsTheyStartAndEachRerunAddsToTheTotal) {
  Progress progress(3, false);
  for (int i = 0; i < 3; ++i) progress.start("t");
  progress.add_rerun();
  progress.start("t");
  EXPECT_EQ(progress.runs_started(), 4U);
  EXPECT_EQ(progress.total_runs(), 4U);
  Progress unknown_total(0, false);  // a time to fill: no total to grow
  unknown_total.add_rerun();
  EXPECT_EQ(unknown_total.total_runs(), 0U);
}

// Runs of 1 s each: the ETA falls one run's time a run; a re-run raises it by one run's time
// and the count goes on from where it was; a run the plan no longer needs (its cell decided)
// leaves the total, so the ETA stops counting it and the count ends at the total, not at
// [100/144] with minutes left on the clock.
TEST(Progress, TheEtaMovesOnlyWithTheRunsLeft) {
  double now_s = 0;
  Progress progress(5, false, [&now_s] { return now_s; });
  progress.start("t");
  EXPECT_EQ(progress.line(), "[1/5] t  elapsed 0:00  ETA ?");
  now_s = 1;
  progress.start("t");
  EXPECT_EQ(progress.line(), "[2/5] t  elapsed 0:01  ETA 0:04");
  now_s = 2;
  progress.add_rerun();  // a disturbed run again, at the end of its round
  progress.start("t");
  EXPECT_EQ(progress.line(), "[3/6] t  elapsed 0:02  ETA 0:04");
  now_s = 3;
  progress.skip();  // a decided cell's last planned run
  progress.skip();
  progress.start("t");
  EXPECT_EQ(progress.line(), "[4/4] t  elapsed 0:03  ETA 0:01");
  progress.skip();  // nothing planned is left to skip: the total never falls below the count
  EXPECT_EQ(progress.total_runs(), 4U);
}

TEST(ProgressLine, FirstRunHasNoEtaYet) {
  EXPECT_EQ(format_progress_line(0, 12, "getlineInRawOut", 0.2),
            "[1/12] getlineInRawOut  elapsed 0:00  ETA ?");
}

TEST(ProgressLine, EtaIsTheMeanRunTimesTheRunsLeft) {
  // 3 runs done in 30 s: 10 s each; 9 still to run, this one included -> 90 s.
  EXPECT_EQ(format_progress_line(3, 12, "t", 30), "[4/12] t  elapsed 0:30  ETA 1:30");
  EXPECT_EQ(format_progress_line(11, 12, "t", 110), "[12/12] t  elapsed 1:50  ETA 0:10");
}

TEST(ProgressLine, HoursShowAsHMmSs) {
  EXPECT_EQ(format_progress_line(1, 3, "t", 3700), "[2/3] t  elapsed 1:01:40  ETA 2:03:20");
}

TEST(ProgressLine, IsCutTo160Bytes) {
  const std::string line = format_progress_line(0, 1, std::string(500, 'x'), 0);
  EXPECT_EQ(line.size(), 160U);
  EXPECT_EQ(line.rfind("[1/1] xxx", 0), 0U);
}

TEST(ProgressLine, WithoutATotalCountsRunsAndGuessesNoEta) {
  // A time to fill (docs/bench.md, "How many runs"): the count is known per cell as it runs.
  EXPECT_EQ(format_progress_line(56, 0, "A", 3.25), "[57] A  elapsed 0:03");
}

TEST(Progress, KeepsEveryWarningItPrintedInOrder) {
  Progress progress(3, false);
  EXPECT_TRUE(progress.warnings().empty());
  progress.warn("a: wrote to stderr on a run that ended ok: boom");
  progress.warn("input x changed size during the run");
  EXPECT_EQ(progress.warnings(), (std::vector<std::string>{"a: wrote to stderr on a run that "
                                                           "ended ok: boom",
                                                           "input x changed size during the run"}));
}

}  // namespace
}  // namespace iobench::run
