// The busy-machine warning (issue 11) counts what runs now, not the 1-minute load average: right
// after another iobench run the load average still holds that run's work while nothing runs.
// /proc is fed through the ProcSource seam with fixed contents; nothing sleeps.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "driver/run/machine_load.hpp"

namespace iobench {
namespace {

// Two CPUs; the aggregate line is user nice system idle iowait irq softirq steal guest guest_nice.
std::string proc_stat(unsigned user, unsigned system, unsigned idle, unsigned steal = 0) {
  return "cpu  " + std::to_string(user) + " 0 " + std::to_string(system) + " " +
         std::to_string(idle) + " 0 0 0 " + std::to_string(steal) +
         " 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 1 2 3\nctxt 99\n";
}

// Answers /proc/loadavg with `loadavg` and /proc/stat with `before`, then `after` once waited.
struct FakeProc {
  FakeProc(std::string loadavg_text, std::string stat_before, std::string stat_after)
      : loadavg(std::move(loadavg_text)),
        before(std::move(stat_before)),
        after(std::move(stat_after)) {}

  std::string loadavg, before, after;
  std::vector<long> waits_ms;
  bool waited = false;

  ProcSource source() {
    return {[this](const char* path) -> std::string {
              if (std::string(path) == "/proc/loadavg") return loadavg;
              if (std::string(path) == "/proc/stat") return waited ? after : before;
              return {};
            },
            [this](std::chrono::milliseconds window) {
              waits_ms.push_back(window.count());
              waited = true;
            }};
  }
};

TEST(MachineLoad, APreviousRunsLoadAverageOnAnIdleMachineGivesNoWarning) {
  // Load average 3.9 on 2 CPUs (the old rule warned above 1.0), but over the window 50 ticks
  // passed and only 1 was busy.
  FakeProc proc{"3.90 2.10 1.00 1/310 4242\n", proc_stat(5000, 2000, 90000),
                proc_stat(5001, 2000, 90049)};
  const MachineLoad load = sample_machine_load(proc.source());
  EXPECT_EQ(proc.waits_ms, std::vector<long>{kBusyWindow.count()});
  ASSERT_TRUE(load.load_average_1min);
  EXPECT_DOUBLE_EQ(*load.load_average_1min, 3.9);
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_DOUBLE_EQ(*load.busy_cpus, 2.0 * 1 / 50);
  EXPECT_EQ(load.cpus, 2);
  EXPECT_EQ(busy_warning(load), "");
}

TEST(MachineLoad, OthersBusyNowGiveTheWarningNamingTheFigure) {
  // A low load average (a job that just started) with 30 of 50 ticks busy: 1.2 CPUs.
  FakeProc proc{"0.10 0.05 0.01 3/310 4242\n", proc_stat(5000, 2000, 90000),
                proc_stat(5020, 2010, 90020)};
  const MachineLoad load = sample_machine_load(proc.source());
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_DOUBLE_EQ(*load.busy_cpus, 1.2);
  EXPECT_EQ(busy_warning(load),
            "other processes kept 1.2 of 2 CPUs busy in the 250 ms before the runs, so the "
            "figures will be inflated");
}

TEST(MachineLoad, StolenTimeCountsAsBusy) {
  // A hypervisor taking 25 of 50 ticks takes them from the runs too.
  FakeProc proc{"0.00 0.00 0.00 1/310 4242\n", proc_stat(0, 0, 1000, 0), proc_stat(0, 0, 1025, 25)};
  const MachineLoad load = sample_machine_load(proc.source());
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_DOUBLE_EQ(*load.busy_cpus, 1.0);
  EXPECT_NE(busy_warning(load), "");
}

TEST(MachineLoad, JustBelowTheThresholdGivesNoWarning) {
  FakeProc proc{"", proc_stat(0, 0, 1000), proc_stat(12, 0, 1038)};  // 12 of 50 ticks: 0.48
  const MachineLoad load = sample_machine_load(proc.source());
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_LT(*load.busy_cpus, kBusyCpusThreshold);
  EXPECT_EQ(busy_warning(load), "");
  EXPECT_FALSE(load.load_average_1min);  // unreadable /proc/loadavg: null, not 0
}

TEST(MachineLoad, UnreadableProcStatGivesNoFigureAndNoWarning) {
  FakeProc proc{"2.00 1.00 1.00 1/310 4242\n", "", ""};
  const MachineLoad load = sample_machine_load(proc.source());
  EXPECT_FALSE(load.busy_cpus);
  EXPECT_EQ(busy_warning(load), "");
}

TEST(MachineLoad, TheRealProcGivesAFigureWithinTheCpus) {
  const MachineLoad load = sample_machine_load(real_proc_source(), std::chrono::milliseconds(100));
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_GE(*load.busy_cpus, 0.0);
  EXPECT_LE(*load.busy_cpus, static_cast<double>(load.cpus));
  EXPECT_GT(load.cpus, 0);
}

}  // namespace
}  // namespace iobench
