// The disturbance of one run (docs/driver.md, "Disturbance"): every task's exact CPU time (or
// /proc/stat's busy ticks) around the run less iobench's own CPU time, steal apart, clamped at 0,
// and the rule that judges it, on fixed /proc/stat texts and times.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/run/disturbance.hpp"
#include "driver/run/machine_load.hpp"

namespace iobench::run {
namespace {

// Two CPUs; user nice system idle iowait irq softirq steal guest guest_nice.
std::string proc_stat(unsigned user, unsigned system, unsigned idle, unsigned steal = 0) {
  return "cpu  " + std::to_string(user) + " 0 " + std::to_string(system) + " " +
         std::to_string(idle) + " 0 0 0 " + std::to_string(steal) +
         " 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 1 2 3\n";
}

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

TEST(Disturbance, ARunShorterThanATickIsNotJudgedByTheTickThatFellInIt) {
  // A 2 ms run: one user tick fell in it, charged to whatever ran then. Its figure (8 ms of
  // others over 2 ms, "4 CPUs" on a 2-CPU machine) is a sample, not a measure: below the rule's
  // resolution of two ticks.
  const auto d = disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                     ticks(proc_stat(1001, 500, 9000)), 0.002, 100);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->others_cpu_s, 0.008, 1e-9);
  EXPECT_FALSE(is_disturbed(*d, 0.002, 0.5));
}

TEST(Disturbance, TheRuleIsTheThresholdOverTheElapsedTimePlusTheResolution) {
  // A 1 s run, threshold half a CPU: allowed 0.5 s, plus 0.02 s of resolution (two ticks).
  EXPECT_FALSE(is_disturbed({0.52, 0.0, 0.02}, 1.0, 0.5));
  EXPECT_TRUE(is_disturbed({0.53, 0.0, 0.02}, 1.0, 0.5));
  EXPECT_TRUE(is_disturbed({0.30, 0.23, 0.02}, 1.0, 0.5));   // steal is others too
  EXPECT_FALSE(is_disturbed({0.53, 0.0, 0.02}, 1.0, 1.0));   // a higher threshold
  EXPECT_TRUE(is_disturbed({0.509, 0.0, 0.008}, 1.0, 0.5));  // an exact figure's resolution
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

TEST(Disturbance, AnExactFigureJudgesAShortRunThatTicksCannot) {
  // A 57 ms run during which others ran 40 ms (0.70 CPUs): beyond half a CPU (28.5 ms) by more

  const auto exact =
      disturbance_between(ticks(proc_stat(1000, 500, 9000)), ticks(proc_stat(1004, 500, 9010)),
                          0.057, 100, std::pair{0.0, 0.097});
  const auto by_ticks = disturbance_between(ticks(proc_stat(1000, 500, 9000)),
                                            ticks(proc_stat(1010, 500, 9010)), 0.057, 100);
  ASSERT_TRUE(exact && by_ticks);
  EXPECT_NEAR(exact->others_cpu_s, 0.040, 1e-9);
  EXPECT_NEAR(by_ticks->others_cpu_s, 0.043, 1e-9);
  EXPECT_TRUE(is_disturbed(*exact, 0.057, 0.5));
  EXPECT_FALSE(is_disturbed(*by_ticks, 0.057, 0.5));
}

TEST(Disturbance, JudgingFillsTheFiguresAndMarksOnlyOkRowsUnlessOff) {
  config::Config config;
  runfile::RunRow row;
  row.elapsed_s = 1.0;
  EXPECT_TRUE(judge_disturbance(row, {0.9, 0.01, 0.02}, config));
  EXPECT_EQ(row.status, runfile::RunStatus::kDisturbed);
  EXPECT_EQ(row.others_cpu_s.value_or(-1), 0.9);
  EXPECT_EQ(row.steal_s.value_or(-1), 0.01);
  runfile::RunRow failed;
  failed.elapsed_s = 1.0;
  failed.status = runfile::RunStatus::kFailed;
  EXPECT_FALSE(judge_disturbance(failed, {0.9, 0.0, 0.02}, config));
  EXPECT_EQ(failed.status, runfile::RunStatus::kFailed);
  config.disturbance = config::DisturbanceMode::kOff;
  runfile::RunRow measured_only;
  measured_only.elapsed_s = 1.0;
  EXPECT_FALSE(judge_disturbance(measured_only, {0.9, 0.0, 0.02}, config));
  EXPECT_EQ(measured_only.status, runfile::RunStatus::kOk);
  EXPECT_EQ(measured_only.others_cpu_s.value_or(-1),
            0.9);  // the figures are kept whatever the mode
}

// The meter: /proc/stat and the harness time read before and after, the measured tree's rusage
// subtracted with them.
// A run's samples: /proc/stat 0.8 s busier after it, the harness 0.05 s more, and, when
// `machine` is given, every task's time at each sample; each read counted.
struct FakeRunSamples {
  std::vector<std::string> stats{proc_stat(1000, 500, 9000), proc_stat(1060, 520, 9100)};
  std::vector<double> harness{2.0, 2.05};
  std::vector<double> machine;
  std::size_t stat_reads = 0;
  std::size_t harness_reads = 0;
  std::size_t machine_reads = 0;

  ProcSource source() {
    ProcSource source;
    source.read = [this](const char* path) -> std::string {
      return std::string(path) == "/proc/stat" ? stats.at(stat_reads++) : "";
    };
    source.harness_cpu_s = [this]() -> std::optional<double> {
      return harness.at(harness_reads++);
    };
    if (!machine.empty())
      source.machine_cpu_s = [this]() -> std::optional<double> {
        return machine.at(machine_reads++);
      };
    return source;
  }
};

// The measured tree's rusage: 0.4 s user, 0.15 s system.
rusage measured_tree() {
  rusage tree{};
  tree.ru_utime.tv_usec = 400000;
  tree.ru_stime.tv_usec = 150000;
  return tree;
}

TEST(DisturbanceMeter, SubtractsTheHarnessAndTheMeasuredTree) {
  FakeRunSamples samples;
  DisturbanceMeter meter(samples.source());
  meter.before_run();
  const auto d = meter.after_run(measured_tree());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(samples.stat_reads, 2U);  // two reads of /proc/stat a run, no more
  // 0.8 s busy, less 0.05 s of harness and 0.55 s of the measured tree.
  EXPECT_NEAR(d->others_cpu_s, 0.2, 1e-9);
}

TEST(DisturbanceMeter, TheMachinesTimeWhenTheSourceHasIt) {
  FakeRunSamples samples;
  samples.machine = {500.0, 500.7};
  DisturbanceMeter meter(samples.source());
  meter.before_run();
  const auto d = meter.after_run(measured_tree());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(samples.machine_reads, 2U);
  // 0.7 s of every task, less 0.05 s of harness and 0.55 s of the measured tree (the ticks'
  // 0.8 s are not used).
  EXPECT_NEAR(d->others_cpu_s, 0.1, 1e-9);
  EXPECT_EQ(d->resolution_s, kExactResolution_s);
}

TEST(DisturbanceMeter, AnUnreadableProcStatGivesNoFigure) {
  ProcSource source;
  source.read = [](const char*) { return std::string(); };
  source.harness_cpu_s = []() -> std::optional<double> { return 0.0; };
  DisturbanceMeter meter(source);
  meter.before_run();
  EXPECT_FALSE(meter.after_run(rusage{}).has_value());
}

TEST(DisturbedRuns, TheBudgetEndsWithOneWarningNamingTheFigure) {
  DisturbedRuns runs(1, 2);
  runfile::RunRow row;
  row.elapsed_s = 0.5;
  row.others_cpu_s = 0.6;
  row.steal_s = 0.0;
  for (std::size_t run = 0; run < 3; ++run)
    runs.on_disturbed(run, 0, row, config::DisturbanceMode::kRerun);
  EXPECT_TRUE(runs.take(0));
  EXPECT_TRUE(runs.take(0));
  EXPECT_EQ(runs.next().value_or(99), 2U);
  EXPECT_FALSE(runs.take(0));  // spent
  EXPECT_FALSE(runs.next().has_value());
  const std::string warning = runs.budget_warning(0, "a on in.txt (pipe sink)", 3);
  EXPECT_NE(warning.find("up to 1.20 CPUs busy"), std::string::npos) << warning;
  EXPECT_NE(warning.find("re-run budget of 2 is spent, so 3 ok runs count"), std::string::npos)
      << warning;
  EXPECT_EQ(runs.budget_warning(0, "a", 3), "");  // once
}

TEST(DisturbedRuns, FlagQueuesNothing) {
  DisturbedRuns runs(1, 2);
  runs.on_disturbed(0, 0, runfile::RunRow{}, config::DisturbanceMode::kFlag);
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
