// The busy-machine warning (docs/driver.md, "Order, failures, interrupts") counts what others run
// now, not the 1-minute load average: right after another iobench run the load average still holds
// that run's work while nothing runs. The window overlaps the first runs, so iobench's own CPU time
// is left out. /proc, the own CPU time and the clock are fed through the ProcSource seam; nothing
// sleeps but the last two tests.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "driver/run/machine_load.hpp"
#include "driver/run/proc_files.hpp"

namespace iobench::run {
namespace {

using std::chrono::milliseconds;

// Two CPUs; the aggregate line is user nice system idle iowait irq softirq steal guest guest_nice.
std::string stat_text(unsigned user, unsigned system, unsigned idle, unsigned steal = 0) {
  return "cpu  " + std::to_string(user) + " 0 " + std::to_string(system) + " " +
         std::to_string(idle) + " 0 0 0 " + std::to_string(steal) +
         " 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 1 2 3\nctxt 99\n";
}

// Answers /proc/loadavg with `loadavg`, /proc/stat with `stat_at_open` and then `stat_at_close`,
// the own CPU time with `own_at_open_s` and then `own_at_close_s`; a fake clock that only the
// test and the waits move.
struct FakeProc {
  FakeProc(std::string loadavg_text, std::string stat_open, std::string stat_close)
      : loadavg(std::move(loadavg_text)),
        stat_at_open(std::move(stat_open)),
        stat_at_close(std::move(stat_close)) {}

  std::string loadavg;
  std::string stat_at_open, stat_at_close;
  std::optional<double> own_at_open_s = 0.0, own_at_close_s = 0.0;
  long ticks_per_s = 100;

  milliseconds clock{0};
  std::vector<long> waits_ms;
  std::deque<milliseconds> wait_cut_short_to;  // a wait that a signal ends early
  int stat_reads = 0;
  int own_reads = 0;

  ProcSource source() {
    ProcSource source;
    source.read = [this](const char* path) -> std::string {
      if (std::string(path) == "/proc/loadavg") return loadavg;
      if (std::string(path) == "/proc/stat")
        return stat_reads++ == 0 ? stat_at_open : stat_at_close;
      return {};
    };
    source.wait = [this](milliseconds window) {
      waits_ms.push_back(window.count());
      if (!wait_cut_short_to.empty()) {
        window = wait_cut_short_to.front();
        wait_cut_short_to.pop_front();
      }
      clock += window;
    };
    source.now = [this] { return std::chrono::steady_clock::time_point(clock); };
    source.own_cpu_s = [this] { return own_reads++ == 0 ? own_at_open_s : own_at_close_s; };
    source.ticks_per_s = ticks_per_s;
    return source;
  }
};

TEST(BusyWindow, APreviousRunsLoadAverageOnAnIdleMachineGivesNoWarning) {
  // Load average 3.9 on 2 CPUs (the old rule warned above 1.0), but over the window 50 ticks
  // passed and only 1 was busy.
  FakeProc proc{"3.90 2.10 1.00 1/310 4242\n", stat_text(5000, 2000, 90000),
                stat_text(5001, 2000, 90049)};
  BusyWindow window(proc.source());
  window.close_after_runs();
  const MachineLoad& load = window.load();
  ASSERT_TRUE(load.load_average_1min);
  EXPECT_DOUBLE_EQ(*load.load_average_1min, 3.9);
  ASSERT_TRUE(load.busy_cpus);
  EXPECT_DOUBLE_EQ(*load.busy_cpus, 2.0 * 1 / 50);
  EXPECT_EQ(load.cpus, 2);
  EXPECT_EQ(busy_warning(load), "");
}

TEST(BusyWindow, OthersBusyNowGiveTheWarningNamingTheFigureAndTheWindow) {
  // A low load average (a job that just started) with 30 of 50 ticks busy: 1.2 CPUs.
  FakeProc proc{"0.10 0.05 0.01 3/310 4242\n", stat_text(5000, 2000, 90000),
                stat_text(5020, 2010, 90020)};
  BusyWindow window(proc.source());
  proc.clock = milliseconds(312);
  ASSERT_TRUE(window.at_run_boundary());
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_DOUBLE_EQ(*window.load().busy_cpus, 1.2);
  EXPECT_EQ(busy_warning(window.load()),
            "other processes kept 1.2 of 2 CPUs busy in the 312 ms as the runs started (iobench's "
            "own CPU time left out): a run kept waiting for a CPU by them, or that a burst of "
            "theirs overlapped, is marked disturbed "
            "(docs/driver.md, \"Disturbance\")");
}

TEST(BusyWindow, IobenchsOwnCpuTimeIsLeftOut) {
  // 40 of 50 ticks busy (1.6 CPUs), of which iobench's own 0.1875 s at 200 ticks a second are
  // 37.5: others kept 2 * 2.5 / 50 = 0.1 CPUs busy.
  FakeProc proc{"", stat_text(1000, 0, 1000), stat_text(1030, 10, 1010)};
  proc.own_at_open_s = 4.0;
  proc.own_at_close_s = 4.1875;
  proc.ticks_per_s = 200;
  BusyWindow window(proc.source());
  proc.clock = kBusyWindow;
  ASSERT_TRUE(window.at_run_boundary());
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_DOUBLE_EQ(*window.load().busy_cpus, 2.0 * 2.5 / 50);
  EXPECT_EQ(busy_warning(window.load()), "");
}

TEST(BusyWindow, OwnTimeAboveTheBusyTicksIsClampedAtZero) {
  // Ticks are sampled, rusage is exact: 10 busy ticks against 0.5 s (50 ticks) of its own.
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(10, 0, 1040)};
  proc.own_at_close_s = 0.5;
  BusyWindow window(proc.source());
  window.close_after_runs();
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_EQ(*window.load().busy_cpus, 0.0);
}

TEST(BusyWindow, ItClosesAtTheFirstRunBoundaryAfterTheWindowNotBefore) {
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(25, 0, 1025)};
  BusyWindow window(proc.source());
  proc.clock = milliseconds(100);
  EXPECT_FALSE(window.at_run_boundary());
  proc.clock = kBusyWindow - milliseconds(1);
  EXPECT_FALSE(window.at_run_boundary());
  EXPECT_FALSE(window.closed());
  EXPECT_FALSE(window.load().busy_cpus) << "no figure while the window is open";
  EXPECT_EQ(proc.stat_reads, 1);
  proc.clock = kBusyWindow + milliseconds(40);
  EXPECT_TRUE(window.at_run_boundary());
  EXPECT_TRUE(window.closed());
  EXPECT_EQ(window.load().window, kBusyWindow + milliseconds(40));
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_DOUBLE_EQ(*window.load().busy_cpus, 1.0);
  // Later boundaries and the end of the runs leave it as it closed.
  proc.clock = milliseconds(900);
  EXPECT_FALSE(window.at_run_boundary());
  window.close_after_runs();
  EXPECT_EQ(proc.stat_reads, 2);
  EXPECT_TRUE(proc.waits_ms.empty());
  EXPECT_EQ(window.load().window, kBusyWindow + milliseconds(40));
}

TEST(BusyWindow, RunsThatEndEarlyWaitOutTheRestOfTheWindow) {
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(5, 0, 1045)};
  BusyWindow window(proc.source());
  proc.clock = milliseconds(80);
  EXPECT_FALSE(window.at_run_boundary());
  proc.clock = milliseconds(180);
  window.close_after_runs();
  EXPECT_EQ(proc.waits_ms, std::vector<long>{70});
  EXPECT_EQ(window.load().window, kBusyWindow);
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_DOUBLE_EQ(*window.load().busy_cpus, 2.0 * 5 / 50);
}

TEST(BusyWindow, NoRunsAtAllWaitTheWholeWindowEvenWhenASignalCutsAWaitShort) {
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(5, 0, 1045)};
  proc.wait_cut_short_to = {milliseconds(100)};
  BusyWindow window(proc.source());
  window.close_after_runs([] { return false; });
  EXPECT_EQ(proc.waits_ms, (std::vector<long>{250, 150}));
  EXPECT_EQ(window.load().window, kBusyWindow);
  EXPECT_TRUE(window.load().busy_cpus);
}

TEST(BusyWindow, AnInterruptEndsTheWaitWithoutAFigure) {
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(50, 0, 1000)};
  proc.wait_cut_short_to = {milliseconds(100)};  // the SIGINT ends the sleep
  bool interrupted = false;
  BusyWindow window(proc.source());
  window.close_after_runs([&interrupted] {
    const bool was = interrupted;
    interrupted = true;  // arrives during the first wait
    return was;
  });
  EXPECT_EQ(proc.waits_ms, std::vector<long>{250}) << "waited on after the interrupt";
  EXPECT_TRUE(window.closed());
  EXPECT_FALSE(window.load().busy_cpus) << "a figure over a shorter window";
  EXPECT_EQ(busy_warning(window.load()), "");
}

TEST(BusyWindow, StolenTimeCountsAsBusy) {
  // A hypervisor taking 25 of 50 ticks takes them from the runs too.
  FakeProc proc{"0.00 0.00 0.00 1/310 4242\n", stat_text(0, 0, 1000, 0), stat_text(0, 0, 1025, 25)};
  BusyWindow window(proc.source());
  window.close_after_runs();
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_DOUBLE_EQ(*window.load().busy_cpus, 1.0);
  EXPECT_NE(busy_warning(window.load()), "");
}

TEST(BusyWindow, JustBelowTheThresholdGivesNoWarning) {
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(12, 0, 1038)};  // 12 of 50 ticks: 0.48
  BusyWindow window(proc.source());
  window.close_after_runs();
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_LT(*window.load().busy_cpus, kBusyCpusThreshold);
  EXPECT_EQ(busy_warning(window.load()), "");
  EXPECT_FALSE(window.load().load_average_1min);  // unreadable /proc/loadavg: null, not 0
}

TEST(BusyWindow, UnreadableProcStatGivesNoFigureAndNoWarning) {
  FakeProc proc{"2.00 1.00 1.00 1/310 4242\n", "", ""};
  BusyWindow window(proc.source());
  window.close_after_runs();
  EXPECT_FALSE(window.load().busy_cpus);
  EXPECT_EQ(busy_warning(window.load()), "");
}

TEST(BusyWindow, AnUnknownOwnCpuTimeGivesNoFigure) {
  // Without its own time the figure would blame others for iobench's work.
  FakeProc proc{"", stat_text(0, 0, 1000), stat_text(50, 0, 1000)};
  proc.own_at_close_s = std::nullopt;
  BusyWindow window(proc.source());
  window.close_after_runs();
  EXPECT_FALSE(window.load().busy_cpus);
  EXPECT_EQ(busy_warning(window.load()), "");
}

TEST(PidStatCpuTicks, CountsFieldsFromTheLastParenthesisOfTheName) {
  // utime 1000, stime 200, cutime 30, cstime 4; cmajflt (13) and priority (18) are 9 and 20.
  const std::string fields =
      " S 1 4242 4242 0 -1 4194560 100 0 0 9 1000 200 30 4 20 0 1 0 12345 1000000 200 "
      "18446744073709551615\n";
  EXPECT_EQ(pid_stat_cpu_ticks("4242 (iobench-spawner)" + fields), 1234U);
  EXPECT_EQ(pid_stat_cpu_ticks("4242 (a) b (c) 7 8)" + fields), 1234U);
  EXPECT_EQ(pid_stat_cpu_ticks("4242 () 1 2 3 4 5 6 7 8 9 10 11 12)" + fields), 1234U);
  EXPECT_FALSE(pid_stat_cpu_ticks(""));
  EXPECT_FALSE(pid_stat_cpu_ticks("4242 (x) S 1 4242 4242 0 -1 4194560 100 0 0 9 1000 200"));
  EXPECT_FALSE(pid_stat_cpu_ticks("4242 no parenthesis S 1 2 3"));
}

void burn_cpu_s(double cpu_s) {
  timespec used{};
  do {
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &used);
  } while (static_cast<double>(used.tv_sec) + static_cast<double>(used.tv_nsec) / 1e9 < cpu_s);
}

// A stand-in spawner: a child that does `work`, says so on a pipe and lives on until
// stop_stand_in, so its /proc/PID files hold what it did. Its pid once the work is done; -1 when
// it could not be started.
pid_t start_stand_in(const std::function<void()>& work) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  const pid_t pid = ::fork();
  if (pid == 0) {
    work();
    (void)!::write(ready[1], "r", 1);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  const bool done = pid > 0 && ::read(ready[0], &byte, 1) == 1;
  ::close(ready[0]);
  return done ? pid : -1;
}

void stop_stand_in(pid_t pid) {
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

TEST(RealProcSource, OwnCpuTimeCountsReapedChildrenAndWhatTheSpawnerReaped) {
  // A reaped child of this process: in RUSAGE_CHILDREN.
  const auto before_s = real_proc_source().own_cpu_s();
  ASSERT_TRUE(before_s);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    burn_cpu_s(0.2);
    ::_exit(0);
  }
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const auto after_s = real_proc_source().own_cpu_s();
  ASSERT_TRUE(after_s);
  EXPECT_GE(*after_s - *before_s, 0.2);

  // A stand-in spawner that reaped a worker of its own and lives on: its cutime.
  const pid_t spawner = start_stand_in([] {
    const pid_t worker = ::fork();
    if (worker == 0) {
      burn_cpu_s(0.2);
      ::_exit(0);
    }
    ::waitpid(worker, nullptr, 0);
  });
  ASSERT_GT(spawner, 0);
  const auto with_spawner_s = real_proc_source(spawner).own_cpu_s();
  const auto without_s = real_proc_source().own_cpu_s();
  stop_stand_in(spawner);
  ASSERT_TRUE(with_spawner_s);
  ASSERT_TRUE(without_s);
  EXPECT_GE(*with_spawner_s - *without_s, 0.15) << "ticks round down, hence less than 0.2";

  EXPECT_FALSE(real_proc_source(spawner).own_cpu_s()) << "a spawner that is gone is not 0";
}

// The spawner's own time to the nanosecond: 12.3 ms of it would be one tick (10 ms) in its
// /proc/PID/stat.
TEST(RealProcSource, TheSpawnersOwnTimeIsItsSchedstatNotItsTicks) {
  if (parse_nanoseconds_s(ProcFiles().read("/proc/self/schedstat")) == std::nullopt)
    GTEST_SKIP() << "this kernel has no /proc/PID/schedstat (CONFIG_SCHED_INFO)";
  const pid_t spawner = start_stand_in([] { burn_cpu_s(0.0123); });
  ASSERT_GT(spawner, 0);
  const auto with_spawner_s = real_proc_source(spawner).harness_cpu_s();
  const auto without_s = real_proc_source().harness_cpu_s();
  stop_stand_in(spawner);
  ASSERT_TRUE(with_spawner_s && without_s);
  EXPECT_GE(*with_spawner_s - *without_s, 0.0123 - 0.001);
  EXPECT_LT(*with_spawner_s - *without_s, 0.0123 + 0.01);
}

// Every task's time, where cgroup v1's cpuacct root is mounted: at least this thread's own work
// over the same span, to within the exact figure's resolution.
TEST(RealProcSource, TheMachinesTimeCountsThisProcessesWorkExactly) {
  const ProcSource source = real_proc_source();
  if (!source.machine_cpu_s)
    GTEST_SKIP() << "no cgroup v1 cpuacct root here (" << kCpuacctUsagePaths[0]
                 << "): others come from /proc/stat's ticks";
  const auto machine_before_s = source.machine_cpu_s();
  const auto own_before_s = source.harness_cpu_s();
  timespec start{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
  burn_cpu_s(static_cast<double>(start.tv_sec) + static_cast<double>(start.tv_nsec) / 1e9 + 0.03);
  const auto own_after_s = source.harness_cpu_s();
  const auto machine_after_s = source.machine_cpu_s();
  ASSERT_TRUE(machine_before_s && machine_after_s && own_before_s && own_after_s);
  EXPECT_GE(*own_after_s - *own_before_s, 0.03);
  EXPECT_GE(*machine_after_s - *machine_before_s, *own_after_s - *own_before_s - 0.004);
}

TEST(RealProcSource, AWindowOverTheRealProcGivesAFigureWithinTheCpus) {
  BusyWindow window(real_proc_source(::getppid()), milliseconds(100));
  window.close_after_runs();
  ASSERT_TRUE(window.load().busy_cpus);
  EXPECT_GE(*window.load().busy_cpus, 0.0);
  EXPECT_LE(*window.load().busy_cpus, static_cast<double>(window.load().cpus));
  EXPECT_GT(window.load().cpus, 0);
  EXPECT_GE(window.load().window, milliseconds(100));
}

}  // namespace
}  // namespace iobench::run
