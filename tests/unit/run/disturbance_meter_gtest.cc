// The disturbance meter (docs/driver.md, "Disturbance"): /proc/stat and the harness time read
// before and after a run (or a duet's pair), the measured trees' rusage subtracted with them, and
// each run's own wait from the kernel's exit reports or the worker's own figure.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "driver/run/disturbance.hpp"
#include "driver/run/machine_load.hpp"
#include "tests/unit/run/proc_stat_text.hpp"

namespace iobench::run {
namespace {

using test::proc_stat;

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

// The measured tree's result: 0.4 s user, 0.15 s system in 0.6 s, worker pid 100, which waited
// 3 ms for a CPU itself and ran 0.55 s on one.
spawn::SpawnResult measured_tree() {
  spawn::SpawnResult result;
  result.usage.ru_utime.tv_usec = 400000;
  result.usage.ru_stime.tv_usec = 150000;
  result.elapsed_s = 0.6;
  result.pid = 100;
  result.own_wait_cpu_s = 0.003;
  result.own_on_cpu_s = 0.55;
  return result;
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
  // No exit reports: the worker's own wait is the judge.
  EXPECT_EQ(d->wait_cpu_s, 0.003);
  EXPECT_EQ(d->wait_scope, WaitScope::kWorker);
}

TEST(DisturbanceMeter, TheTreesWaitWhenTheKernelReportsItsExits) {
  FakeRunSamples samples;
  ProcSource source = samples.source();
  int takes = 0;
  // Before the run: a stale report, dropped. After: the worker (100), its child and grandchild,
  // and a stranger.
  source.task_exits = [&takes]() -> std::optional<std::vector<TaskExit>> {
    const std::uint64_t life_ns = 600'000'000;
    if (takes++ == 0) return std::vector<TaskExit>{{100, 100, 1, 999'000'000, 0, 0, life_ns}};
    return std::vector<TaskExit>{{102, 102, 101, 1'000'000, 7'000'000, 0, life_ns},
                                 {101, 101, 100, 2'000'000, 0, 0, life_ns},
                                 {100, 100, 1, 3'000'000, 0, 0, life_ns},
                                 {200, 200, 1, 50'000'000, 0, 0, life_ns}};
  };
  source.block_io_accounted = true;
  DisturbanceMeter meter(source);
  meter.before_run();
  const auto d = meter.after_run(measured_tree());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(takes, 2);
  EXPECT_EQ(d->wait_scope, WaitScope::kTree);
  EXPECT_NEAR(d->wait_cpu_s.value_or(-1), 0.006, 1e-12);
  EXPECT_NEAR(d->block_io_wait_s.value_or(-1), 0.007, 1e-12);
}

// A duet: the partner's tree is iobench's own, not another's, and each run is judged by its own
// tree's wait, both from the one take of the exits after both were reaped.
TEST(DisturbanceMeter, RunsAtTheSameMomentShareTheIntervalAndKeepTheirOwnWait) {
  FakeRunSamples samples;
  ProcSource source = samples.source();
  int takes = 0;
  source.task_exits = [&takes]() -> std::optional<std::vector<TaskExit>> {
    const std::uint64_t life_ns = 600'000'000;
    if (takes++ == 0) return std::vector<TaskExit>{};
    return std::vector<TaskExit>{{100, 100, 1, 6'000'000, 0, 0, life_ns},
                                 {300, 300, 1, 2'000'000, 0, 0, life_ns},
                                 {301, 301, 300, 1'000'000, 0, 0, life_ns}};
  };
  DisturbanceMeter meter(source);
  spawn::SpawnResult partner = measured_tree();
  partner.pid = 300;
  partner.usage.ru_utime.tv_usec = 100000;  // 0.15 s in all
  partner.usage.ru_stime.tv_usec = 50000;
  meter.before_run();
  const std::array results{measured_tree(), partner};
  const auto each = meter.after_runs(results);
  ASSERT_EQ(each.size(), 2U);
  ASSERT_TRUE(each[0].has_value() && each[1].has_value());
  EXPECT_EQ(samples.stat_reads, 2U);  // one interval for the pair
  EXPECT_EQ(takes, 2);
  // 0.8 s busy, less 0.05 s of harness and both trees (0.55 s and 0.15 s).
  EXPECT_NEAR(each[0]->others_cpu_s, 0.05, 1e-9);
  EXPECT_NEAR(each[1]->others_cpu_s, 0.05, 1e-9);
  EXPECT_NEAR(each[0]->wait_cpu_s.value_or(-1), 0.006, 1e-12);
  EXPECT_EQ(each[0]->tasks, 1);
  EXPECT_NEAR(each[1]->wait_cpu_s.value_or(-1), 0.003, 1e-12);
  EXPECT_EQ(each[1]->tasks, 2);
}

TEST(DisturbanceMeter, TheWorkersOwnWaitIsWithinItsElapsedLessItsTimeOnACpu) {
  FakeRunSamples samples;
  DisturbanceMeter meter(samples.source());
  spawn::SpawnResult skewed = measured_tree();
  skewed.own_wait_cpu_s = 0.1;  // 0.6 s elapsed, 0.55 s on a CPU: 0.05 s could have been waited
  meter.before_run();
  const auto d = meter.after_run(skewed);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->wait_cpu_s.value_or(-1), 0.05, 1e-9);
}

TEST(DisturbanceMeter, TheTreesWaitIsWithinItsTasksTimesTheRunLessTheirTimeOnACpu) {
  FakeRunSamples samples;
  ProcSource source = samples.source();
  // One task, its report saying 40 ms of waiting within a 0.6 s life and 0.5 s on a CPU (its last
  // tick missed); wait4 says 0.59 s on a CPU: at most 10 ms of it can have been waiting.
  source.task_exits = []() -> std::optional<std::vector<TaskExit>> {
    return std::vector<TaskExit>{{100, 100, 1, 40'000'000, 0, 500'000'000, 600'000'000}};
  };
  DisturbanceMeter meter(source);
  spawn::SpawnResult one = measured_tree();
  one.usage.ru_utime.tv_usec = 440000;  // 0.59 s in all
  meter.before_run();
  const auto d = meter.after_run(one);
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(d->wait_cpu_s.value_or(-1), 0.01, 1e-9);
}

TEST(DisturbanceMeter, LostReportsFallBackToTheWorkersOwnWait) {
  FakeRunSamples samples;
  ProcSource source = samples.source();
  source.task_exits = []() -> std::optional<std::vector<TaskExit>> { return std::nullopt; };
  DisturbanceMeter meter(source);
  meter.before_run();
  const auto d = meter.after_run(measured_tree());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->wait_scope, WaitScope::kWorker);
  EXPECT_EQ(d->wait_cpu_s, 0.003);
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
  EXPECT_FALSE(meter.after_run(spawn::SpawnResult{}).has_value());
  // The run's own wait still judges it when /proc/stat cannot say what others did.
  meter.before_run();
  const auto own = meter.after_run(measured_tree());
  ASSERT_TRUE(own.has_value());
  EXPECT_EQ(own->wait_cpu_s, 0.003);
  EXPECT_EQ(own->others_cpu_s, 0.0);
}

}  // namespace
}  // namespace iobench::run
