#pragma once
// What the machine is doing just before the runs (issue 11). The 1-minute load average decays over
// minutes, so right after another iobench run (a script running configs back to back, `bench`,
// CI) it still counts that run's own work; busy CPU time over a short window counts only what
// runs now. /proc is read through ProcSource so tests can feed it fixed contents.
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace iobench {

struct ProcSource {
  std::function<std::string(const char* path)> read;  // a /proc file's text; empty if unreadable
  std::function<void(std::chrono::milliseconds)> wait;
};

// /proc itself and a real sleep.
ProcSource real_proc_source();

// The sampling window: long enough for 25 clock ticks per CPU, short enough to cost one pause
// per `run`.
inline constexpr std::chrono::milliseconds kBusyWindow{250};
// Others keeping half a CPU busy share a CPU with the worker or its pipe-drain thread for a good
// part of the runs.
inline constexpr double kBusyCpusThreshold = 0.5;

struct MachineLoad {
  std::optional<double> load_average_1min;
  std::optional<double> busy_cpus;  // CPUs' worth of non-idle time (steal included) over the window
  int cpus = 0;                     // the cpuN lines of /proc/stat
  std::chrono::milliseconds window{};
};

// Reads /proc/loadavg, then /proc/stat twice, `window` apart.
MachineLoad sample_machine_load(const ProcSource& source,
                                std::chrono::milliseconds window = kBusyWindow);

// The warning (no "iobench: warning: " prefix) when busy_cpus reaches kBusyCpusThreshold; empty
// otherwise, whatever the load average says.
std::string busy_warning(const MachineLoad& load);

// The first field of /proc/loadavg; empty when the kernel does not say.
std::optional<double> load_average_1min(const ProcSource& source = real_proc_source());

}  // namespace iobench
