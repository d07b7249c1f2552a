// The disturbance of one run (docs/driver.md, "Disturbance"): every task's exact CPU time (or
// /proc/stat's busy ticks) around the run less iobench's own CPU time, steal apart, clamped at 0,
// and the rule that judges it, on fixed /proc/stat texts and times.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "driver/run/disturbance.hpp"
#include "driver/run/machine_load.hpp"
#include "tests/unit/run/proc_stat_text.hpp"

namespace iobench::run {
namespace {

using test::proc_stat;

ProcStatTicks ticks(const std::string& text) {
  const auto parsed = parse_proc_stat(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(ProcStatTicks{});
}

TEST(Disturbance, IobenchsOwnTimeIsSubtracted) {
  // 50 busy ticks (0.5 s) over the run, of which 0.3 s were iobench's own.
  const auto d = disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                     ticks(proc_stat(1040, 510, 9050)), 0.3, 100);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->others_cpu_s, 0.2, 1e-9);
  EXPECT_EQ(d->steal_s, 0.0);
}

TEST(Disturbance, StealIsCountedApartFromOthers) {
  const auto d = disturbance_between(ticks(proc_stat(1000, 500, 9000, 7)),
                                     ticks(proc_stat(1030, 500, 9050, 17)), 0.3, 100);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->steal_s, 0.10, 1e-9);
  EXPECT_NEAR(d->others_cpu_s, 0.0, 1e-9);  // the 30 user ticks were iobench's own
}

TEST(Disturbance, OwnTimeAboveTheTicksItFellInIsClampedAtZero) {
  // rusage is exact, /proc/stat whole ticks: 0.034 s of own work may show as 3 ticks.
  const auto d = disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                     ticks(proc_stat(1003, 500, 9010)), 0.034, 100);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->others_cpu_s, 0.0);
}

TEST(Disturbance, SamplesThatGoBackwardsGiveNoFigure) {
  EXPECT_FALSE(disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                   ticks(proc_stat(900, 500, 9100)), 0, 100));
}

// A run's figures: what it waited for a CPU (its tree's), and the steal over it, on two CPUs.
RunDisturbance suffered(std::optional<double> wait_cpu_s, double steal_s = 0,
                        double others_cpu_s = 0) {
  RunDisturbance d;
  d.others_cpu_s = others_cpu_s;
  d.steal_s = steal_s;
  d.resolution_s = steal_s > 0 ? 0.02 : kExactResolution_s;
  d.cpus = 2;
  d.wait_cpu_s = wait_cpu_s;
  d.wait_scope = wait_cpu_s ? WaitScope::kTree : WaitScope::kNone;
  return d;
}

TEST(Disturbance, TheRuleIsTheRunsOwnWaitOverTheThresholdOfItsElapsedTimePlusTheFloor) {
  // A 10 ms run, threshold 0.1 of a CPU: allowed 1 ms, plus the 4 ms floor (a tick).
  EXPECT_FALSE(is_disturbed(suffered(0.005), 0.010, 0.1));
  EXPECT_TRUE(is_disturbed(suffered(0.00501), 0.010, 0.1));
  EXPECT_FALSE(is_disturbed(suffered(0.00501), 0.010, 0.2));  // a higher threshold
  EXPECT_NEAR(allowed_s(suffered(0.0), 0.010, 0.1), 0.005, 1e-12);
  // A 1 s run: the threshold is nearly all of it.
  EXPECT_TRUE(is_disturbed(suffered(0.105), 1.0, 0.1));
  EXPECT_FALSE(is_disturbed(suffered(0.103), 1.0, 0.1));
}

TEST(Disturbance, WhatTheRestOfTheMachineDidDoesNotJudgeTheRun) {
  // Others kept 1.5 CPUs busy over the run (a steady background on a 2-CPU machine), but the run
  // never waited: it had a CPU of its own.
  EXPECT_FALSE(is_disturbed(suffered(0.0, 0.0, 0.015), 0.010, 0.1));
  // Nothing the run suffered was measured: it is not judged at all.
  EXPECT_FALSE(is_disturbed(suffered(std::nullopt, 0.0, 5.0), 0.010, 0.1));
}

TEST(Disturbance, ARunsTasksWaitingForEachOtherIsNotOthersDoing) {
  // A pipeline of three on two CPUs: its tasks waited 40 ms of its 66 ms, for each other, while
  // others ran 4.5 ms by a figure that may lag 4 ms: at most its 3 tasks times 0.5 ms were
  // others' doing.
  RunDisturbance pipeline = suffered(0.040, 0, 0.0045);
  pipeline.tasks = 3;
  pipeline.others_measured = true;
  EXPECT_NEAR(suffered_s(pipeline), 0.0015, 1e-12);
  EXPECT_FALSE(is_disturbed(pipeline, 0.066, 0.1));
  EXPECT_EQ(suffered_phrase(pipeline, 0.066),
            "its processes waited 1.50 ms of its 66 ms for a CPU");
  // Others ran 24 ms: two of the tasks can have waited behind them at once, 40 ms in all.
  pipeline.others_cpu_s = 0.024;
  EXPECT_NEAR(suffered_s(pipeline), 0.040, 1e-12);
  EXPECT_TRUE(is_disturbed(pipeline, 0.066, 0.1));
  // Where others were not measured, the wait is taken whole.
  pipeline.others_measured = false;
  pipeline.others_cpu_s = 0;
  EXPECT_NEAR(suffered_s(pipeline), 0.040, 1e-12);
}

TEST(Disturbance, TheRunsShareOfTheStealCountsBeyondItsResolution) {
  // 1 s run: 0.3 s of steal over two CPUs is 0.15 s of the run's CPU, beyond 0.1 s + 4 ms +
  // a tick's resolution per CPU (0.01 s).
  EXPECT_TRUE(is_disturbed(suffered(0.0, 0.3), 1.0, 0.1));
  EXPECT_FALSE(is_disturbed(suffered(0.0, 0.2), 1.0, 0.1));
  EXPECT_NEAR(suffered_s(suffered(0.05, 0.2)), 0.15, 1e-12);
  // A run shorter than a tick is not judged by the ticks of steal that fell in it.
  EXPECT_FALSE(is_disturbed(suffered(std::nullopt, 0.02), 0.002, 0.1));
}

TEST(Disturbance, ThePhraseSaysWhoWaitedHowLongOfHowLong) {
  EXPECT_EQ(suffered_phrase(suffered(0.0021), 0.009),
            "its processes waited 2.10 ms of its 9.00 ms for a CPU");
  RunDisturbance own = suffered(0.0021);
  own.wait_scope = WaitScope::kWorker;
  EXPECT_EQ(suffered_phrase(own, 0.25), "the worker waited 2.10 ms of its 250 ms for a CPU");
  EXPECT_EQ(suffered_phrase(suffered(0.0021, 0.04), 0.25),
            "its processes waited 2.10 ms of its 250 ms for a CPU, and 20 ms of the CPUs' time "
            "went to other guests (steal)");
}

// The root cpuacct group's time: others to the nanosecond; /proc/stat's ticks then give only the
// steal.
TEST(Disturbance, TheMachinesExactTimeGivesOthersAndTheTicksOnlyTheSteal) {
  // The ticks say 10 busy (0.1 s); every task together ran 0.050 s, 0.030 s of it iobench's own.
  const auto d =
      disturbance_between(ticks(proc_stat(1000, 500, 9000)), ticks(proc_stat(1010, 500, 9000)),
                          0.030, 100, std::pair{100.0, 100.050});
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->others_cpu_s, 0.020, 1e-9);
  EXPECT_EQ(d->steal_s, 0.0);
  EXPECT_EQ(d->resolution_s, kExactResolution_s);  // no steal: no ticks' error in the figure
  const auto stolen =
      disturbance_between(ticks(proc_stat(1000, 500, 9000, 3)),
                          ticks(proc_stat(1000, 500, 9000, 5)), 0.030, 100, std::pair{1.0, 1.03});
  ASSERT_TRUE(stolen.has_value());
  EXPECT_NEAR(stolen->steal_s, 0.02, 1e-9);
  EXPECT_NEAR(stolen->others_cpu_s, 0.0, 1e-9);
  EXPECT_NEAR(stolen->resolution_s, kExactResolution_s + 0.02, 1e-12);
  EXPECT_FALSE(disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                   ticks(proc_stat(1010, 500, 9000)), 0.0, 100,
                                   std::pair{2.0, 1.0}))
      << "an exact time that goes backwards gives no figure";
}

TEST(Disturbance, JudgingFillsTheFiguresAndMarksOnlyOkRowsUnlessOff) {
  config::Config config;
  runfile::RunRow row;
  row.elapsed_s = 1.0;
  EXPECT_TRUE(judge_disturbance(row, suffered(0.5, 0.01, 0.9), config));
  EXPECT_EQ(row.status, runfile::RunStatus::kDisturbed);
  EXPECT_EQ(row.others_cpu_s.value_or(-1), 0.9);
  EXPECT_EQ(row.steal_s.value_or(-1), 0.01);
  EXPECT_EQ(row.wait_cpu_s.value_or(-1), 0.5);
  runfile::RunRow failed;
  failed.elapsed_s = 1.0;
  failed.status = runfile::RunStatus::kFailed;
  EXPECT_FALSE(judge_disturbance(failed, suffered(0.5), config));
  EXPECT_EQ(failed.status, runfile::RunStatus::kFailed);
  config.disturbance = config::DisturbanceMode::kOff;
  runfile::RunRow measured_only;
  measured_only.elapsed_s = 1.0;
  EXPECT_FALSE(judge_disturbance(measured_only, suffered(0.5, 0.0, 0.9), config));
  EXPECT_EQ(measured_only.status, runfile::RunStatus::kOk);
  // The figures are kept whatever the mode.
  EXPECT_EQ(measured_only.others_cpu_s.value_or(-1), 0.9);
  EXPECT_EQ(measured_only.wait_cpu_s.value_or(-1), 0.5);
}

TEST(DisturbedRuns, TheFirstIsSaidOnceAndTheBudgetEndsWithOneWarningNamingTheWorst) {
  config::Config config;
  DisturbedRuns runs(1, 2);
  runfile::RunRow row;
  row.elapsed_s = 0.5;
  row.repeat = 1;
  const std::string first =
      runs.on_disturbed(0, 0, row, suffered(0.2), config, "a on in.txt (pipe sink)");
  EXPECT_NE(first.find("a on in.txt (pipe sink): run 1 was disturbed: its processes waited 200 "
                       "ms of its 500 ms for a CPU"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("IOBENCH_DISTURBANCE=off"), std::string::npos) << first;
  EXPECT_EQ(runs.on_disturbed(1, 0, row, suffered(0.3), config, "a"), "");  // once a cell
  EXPECT_EQ(runs.on_disturbed(2, 0, row, suffered(0.25), config, "a"), "");
  EXPECT_TRUE(runs.take(0));
  EXPECT_TRUE(runs.take(0));
  EXPECT_EQ(runs.next().value_or(99), 2U);
  EXPECT_FALSE(runs.take(0));  // spent
  EXPECT_FALSE(runs.next().has_value());
  const std::string warning = runs.budget_warning(0, "a on in.txt (pipe sink)", 3);
  EXPECT_NE(warning.find("at worst its processes waited 300 ms of its 500 ms"), std::string::npos)
      << warning;
  EXPECT_NE(warning.find("re-run budget of 2 is spent, so 3 ok runs count"), std::string::npos)
      << warning;
  EXPECT_EQ(runs.budget_warning(0, "a", 3), "");  // once
}

TEST(DisturbedRuns, FlagQueuesNothing) {
  config::Config config;
  config.disturbance = config::DisturbanceMode::kFlag;
  DisturbedRuns runs(1, 2);
  const std::string said = runs.on_disturbed(0, 0, runfile::RunRow{}, suffered(0.1), config, "a");
  EXPECT_NE(said.find("it is left out."), std::string::npos) << said;
  EXPECT_FALSE(runs.next().has_value());
}

TEST(PidStat, OwnTicksAreUtimeAndStimeAloneWhateverTheName) {
  // Fields 14 to 17: utime 7, stime 5, cutime 100, cstime 50 (the reaped workers, not counted).
  const std::string text =
      "4242 (iobench) spawner) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 5 100 50 20 0 1 0 12345 "
      "1000000 100 18446744073709551615\n";
  EXPECT_EQ(pid_stat_own_cpu_ticks(text).value_or(0), 12U);
  EXPECT_FALSE(pid_stat_own_cpu_ticks("4242 (x) S 1 2").has_value());
}

TEST(Nanoseconds, CpuacctUsageAndSchedstatsFirstFieldInSeconds) {
  EXPECT_NEAR(parse_nanoseconds_s("75370172226269\n").value_or(0), 75370.172226269, 1e-6);
  EXPECT_NEAR(parse_nanoseconds_s("400084 0 1\n").value_or(0), 0.000400084, 1e-12);
  EXPECT_FALSE(parse_nanoseconds_s("").has_value());
  EXPECT_FALSE(parse_nanoseconds_s("user 5\n").has_value());
}

TEST(ProcStat, StealIsReadAndInsideBusy) {
  const ProcStatTicks t = ticks(proc_stat(10, 20, 300, 4));
  EXPECT_EQ(t.steal, 4U);
  EXPECT_EQ(t.busy, 34U);
  EXPECT_EQ(t.total, 334U);
  EXPECT_EQ(t.cpus, 2);
}

}  // namespace
}  // namespace iobench::run
