#pragma once
// What others do on the machine as the runs start (docs/driver.md, "Order, failures, interrupts").
// The 1-minute load average decays over minutes, so right after another iobench run (a script
// running configs back to back, `bench`, CI) it still counts that run's own work; busy CPU time
// over a short window, less iobench's own, counts only what others run now. The window overlaps the
// first runs instead of blocking them. /proc, iobench's own CPU time and the clock are read through
// ProcSource so tests can feed them fixed contents.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "driver/run/task_exits.hpp"

namespace iobench::run {

struct ProcSource {
  std::function<std::string(const char* path)> read;    // a /proc file's text; empty if unreadable
  std::function<void(std::chrono::milliseconds)> wait;  // may return early (a signal)
  std::function<std::chrono::steady_clock::time_point()> now;
  // CPU seconds iobench itself has used so far, every process of it counted (the driver's
  // threads, the children it reaped, the spawner and the workers it reaped); empty if unknown.
  std::function<std::optional<double>()> own_cpu_s;
  // CPU seconds of iobench's harness so far: the driver's threads (the pipe drain among them) and
  // the spawner itself, the workers it reaped not counted (their exact time comes from wait4 with
  // each run: docs/driver.md, "Disturbance"); empty if unknown.
  std::function<std::optional<double>()> harness_cpu_s;
  // CPU seconds every task on the machine has run so far, to the nanosecond (the root cpuacct
  // group's cpuacct.usage, cgroup v1); empty when it cannot be read, and then a run's others are
  // /proc/stat's busy ticks instead (docs/driver.md, "Disturbance").
  std::function<std::optional<double>()> machine_cpu_s;
  long ticks_per_s = 100;  // USER_HZ, the unit of /proc/stat
  // The task exits the kernel reported since the last call (driver/run/task_exits.hpp); empty
  // when some were lost. Unset where the kernel reports none to iobench (not root).
  std::function<std::optional<std::vector<TaskExit>>()> task_exits;
  bool block_io_accounted = false;  // the reports carry block-I/O delay (kernel.task_delayacct)
};

// The aggregate "cpu" line of /proc/stat, in clock ticks, and the number of cpuN lines.
struct ProcStatTicks {
  std::uint64_t busy = 0;   // user nice system irq softirq steal
  std::uint64_t steal = 0;  // time a hypervisor gave to others (inside busy)
  std::uint64_t total = 0;  // busy + idle + iowait
  int cpus = 0;
};
// Empty when the text has no whole aggregate line.
std::optional<ProcStatTicks> parse_proc_stat(const std::string& text);

// /proc itself, a real sleep, the steady clock, and the own CPU time of this process, its reaped
// children and the spawner `spawner_pid` (utime + stime + cutime + cstime of its
// /proc/PID/stat: it reaps the workers); -1: no spawner. Its harness_cpu_s: this process'
// threads and the spawner's own time alone (its /proc/PID/schedstat, in nanoseconds, where the
// kernel has it; utime + stime otherwise). Its machine_cpu_s: the first of kCpuacctUsagePaths
// that reads as a number.
ProcSource real_proc_source(pid_t spawner_pid = -1);

// Where cgroup v1 mounts the cpuacct controller's root, on the distributions iobench knows. (The
// root of cgroup v2 has no exact figure: its cpu.stat is summed from the ticks of /proc/stat.)
inline constexpr const char* kCpuacctUsagePaths[] = {"/sys/fs/cgroup/cpuacct/cpuacct.usage",
                                                     "/sys/fs/cgroup/cpu,cpuacct/cpuacct.usage"};

// The first number of a text that counts nanoseconds (cpuacct.usage; /proc/PID/schedstat, whose
// first field is the time on a CPU), in seconds; empty when it starts with no number.
std::optional<double> parse_nanoseconds_s(const std::string& text);

// The least the window lasts: long enough for 25 clock ticks per CPU.
inline constexpr std::chrono::milliseconds kBusyWindow{250};
// Others keeping half a CPU busy share a CPU with the worker or its pipe-drain thread for a good
// part of the runs.
inline constexpr double kBusyCpusThreshold = 0.5;

struct MachineLoad {
  std::optional<double> load_average_1min;
  // CPUs' worth of non-idle time (steal included) over the window, less iobench's own; empty
  // until the window closes, or when it could not be measured.
  std::optional<double> busy_cpus;
  int cpus = 0;                        // the cpuN lines of /proc/stat
  std::chrono::milliseconds window{};  // how long the window lasted
};

// The busy-CPU window. Opened before the inputs are prepared; closed at the first run boundary
// (a worker reaped, its result back, its row written) at least `length` after it opened, or,
// when the runs end sooner, after them once `length` has passed.
class BusyWindow {
 public:
  // Reads /proc/loadavg, /proc/stat, the own CPU time and the clock.
  explicit BusyWindow(ProcSource source, std::chrono::milliseconds length = kBusyWindow);

  // At a run boundary: closes the window if it has lasted `length`. True when it closed now.
  bool at_run_boundary();
  // After the runs: waits out the rest of `length` (through the source's wait) and closes the
  // window. When `interrupted` says so, it stops waiting and closes without a figure: one over
  // a shorter window would not be comparable.
  void close_after_runs(const std::function<bool()>& interrupted = {});

  [[nodiscard]] bool closed() const { return closed_; }
  [[nodiscard]] const MachineLoad& load() const { return load_; }

 private:
  void close();

  ProcSource source_;
  std::chrono::milliseconds length_;
  std::chrono::steady_clock::time_point opened_;
  std::optional<ProcStatTicks> stat_at_open_;
  std::optional<double> own_cpu_s_at_open_;
  MachineLoad load_;
  bool closed_ = false;
};

// The warning (no "iobench: warning: " prefix) when busy_cpus reaches kBusyCpusThreshold; empty
// otherwise, whatever the load average says.
std::string busy_warning(const MachineLoad& load);

// The first field of /proc/loadavg; empty when the kernel does not say.
std::optional<double> load_average_1min(const ProcSource& source = real_proc_source());

// utime + stime + cutime + cstime (fields 14 to 17) of a /proc/PID/stat text, in clock ticks.
// Read by parse_pid_stat (driver/spawn/strays.hpp), the spawner's own parser.
std::optional<std::uint64_t> pid_stat_cpu_ticks(const std::string& text);
// utime + stime (fields 14 and 15) alone: the process' own time, its reaped children not counted.
std::optional<std::uint64_t> pid_stat_own_cpu_ticks(const std::string& text);

}  // namespace iobench::run
