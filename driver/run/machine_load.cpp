#include "driver/run/machine_load.hpp"

#include <fmt/core.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <sstream>
#include <utility>

#include "driver/run/proc_files.hpp"
#include "driver/spawn/strays.hpp"

namespace iobench::run {
namespace {

double seconds(const timeval& time) {
  return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
}

}  // namespace

ProcSource real_proc_source(pid_t spawner_pid) {
  ProcSource source;
  // Read before and after every run: descriptors kept open (ProcFiles), shared by the copies.
  auto files = std::make_shared<ProcFiles>();
  const auto read_text = [files](const char* path) { return files->read(path); };
  const std::string spawner_stat = fmt::format("/proc/{}/stat", spawner_pid);
  source.read = read_text;
  // One nanosleep, not sleep_for: sleep_for sleeps on through a signal, and an interrupt must
  // not wait for it (BusyWindow::close_after_runs checks after each wait).
  source.wait = [](std::chrono::milliseconds window) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(window).count();
    const timespec duration{static_cast<time_t>(ns / 1'000'000'000),
                            static_cast<long>(ns % 1'000'000'000)};
    ::nanosleep(&duration, nullptr);
  };
  source.now = [] { return std::chrono::steady_clock::now(); };
  const long ticks_per_s = ::sysconf(_SC_CLK_TCK);
  if (ticks_per_s > 0) source.ticks_per_s = ticks_per_s;
  source.own_cpu_s = [spawner_pid, read_text, spawner_stat,
                      ticks_per_s = source.ticks_per_s]() -> std::optional<double> {
    rusage self{};
    rusage children{};
    if (::getrusage(RUSAGE_SELF, &self) != 0 || ::getrusage(RUSAGE_CHILDREN, &children) != 0)
      return std::nullopt;
    double cpu_s = seconds(self.ru_utime) + seconds(self.ru_stime) + seconds(children.ru_utime) +
                   seconds(children.ru_stime);
    if (spawner_pid > 0) {
      const auto ticks = pid_stat_cpu_ticks(read_text(spawner_stat.c_str()));
      if (!ticks) return std::nullopt;
      cpu_s += static_cast<double>(*ticks) / static_cast<double>(ticks_per_s);
    }
    return cpu_s;
  };
  const std::string spawner_schedstat = fmt::format("/proc/{}/schedstat", spawner_pid);
  // Probed once, as cpuacct is below: on a kernel without schedstat every sample would otherwise
  // try to open it again (ProcFiles keeps only the descriptors it could open).
  const bool has_schedstat =
      spawner_pid > 0 && parse_nanoseconds_s(read_text(spawner_schedstat.c_str())).has_value();
  source.harness_cpu_s = [spawner_pid, read_text, spawner_stat, spawner_schedstat, has_schedstat,
                          ticks_per_s = source.ticks_per_s]() -> std::optional<double> {
    rusage self{};
    if (::getrusage(RUSAGE_SELF, &self) != 0) return std::nullopt;
    double cpu_s = seconds(self.ru_utime) + seconds(self.ru_stime);
    if (spawner_pid > 0) {
      // schedstat to the nanosecond; stat's utime + stime move in ticks, too coarse for a run
      // of a few milliseconds.
      if (has_schedstat) {
        if (const auto exact_s = parse_nanoseconds_s(read_text(spawner_schedstat.c_str())))
          return cpu_s + *exact_s;
      }
      const auto ticks = pid_stat_own_cpu_ticks(read_text(spawner_stat.c_str()));
      if (!ticks) return std::nullopt;
      cpu_s += static_cast<double>(*ticks) / static_cast<double>(ticks_per_s);
    }
    return cpu_s;
  };
  for (const char* path : kCpuacctUsagePaths) {
    if (!parse_nanoseconds_s(read_text(path))) continue;
    source.machine_cpu_s = [read_text, path] { return parse_nanoseconds_s(read_text(path)); };
    break;
  }
  return source;
}

std::optional<double> parse_nanoseconds_s(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t ns = 0;
  if (!(in >> ns)) return std::nullopt;
  return static_cast<double>(ns) / 1e9;
}

std::optional<std::uint64_t> pid_stat_cpu_ticks(const std::string& text) {
  spawn::PidStat stat;
  if (!spawn::parse_pid_stat(text.c_str(), stat)) return std::nullopt;
  return stat.cpu_ticks;
}

// The fields after the ')' that ends the command name (which may hold spaces and parentheses):
// field 3 (state) is the first, so utime and stime (fields 14, 15) are the 12th and 13th.
std::optional<std::uint64_t> pid_stat_own_cpu_ticks(const std::string& text) {
  const auto close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int i = 3; i < 14; ++i) {
    if (!(fields >> field)) return std::nullopt;
  }
  std::uint64_t utime = 0;
  std::uint64_t stime = 0;
  if (!(fields >> utime >> stime)) return std::nullopt;
  return utime + stime;
}

// The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal (guest
// time is already inside user and nice). Idle and iowait are idle; the rest, steal too, is time
// the runs could not have had.
std::optional<ProcStatTicks> parse_proc_stat(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::optional<ProcStatTicks> ticks;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) continue;
    if (line.size() > 3 && line[3] >= '0' && line[3] <= '9') {
      if (ticks) ++ticks->cpus;
      continue;
    }
    std::istringstream fields(line.substr(3));
    std::uint64_t value[8] = {};
    for (auto& v : value) {
      if (!(fields >> v)) return std::nullopt;
    }
    ticks = ProcStatTicks{};
    ticks->busy = value[0] + value[1] + value[2] + value[5] + value[6] + value[7];
    ticks->steal = value[7];
    ticks->total = ticks->busy + value[3] + value[4];
  }
  return ticks;
}

std::optional<double> load_average_1min(const ProcSource& source) {
  std::istringstream in(source.read("/proc/loadavg"));
  double load = 0;
  if (!(in >> load)) return std::nullopt;
  return load;
}

BusyWindow::BusyWindow(ProcSource source, std::chrono::milliseconds length)
    : source_(std::move(source)), length_(length) {
  load_.load_average_1min = load_average_1min(source_);
  stat_at_open_ = parse_proc_stat(source_.read("/proc/stat"));
  own_cpu_s_at_open_ = source_.own_cpu_s();
  opened_ = source_.now();
}

bool BusyWindow::at_run_boundary() {
  if (closed_ || source_.now() - opened_ < length_) return false;
  close();
  return true;
}

void BusyWindow::close_after_runs(const std::function<bool()>& interrupted) {
  if (closed_) return;
  for (auto elapsed = source_.now() - opened_; elapsed < length_;
       elapsed = source_.now() - opened_) {
    if (interrupted && interrupted()) {
      closed_ = true;
      return;
    }
    source_.wait(std::chrono::ceil<std::chrono::milliseconds>(length_ - elapsed));
  }
  close();
}

void BusyWindow::close() {
  closed_ = true;
  load_.window = std::chrono::floor<std::chrono::milliseconds>(source_.now() - opened_);
  const auto stat = parse_proc_stat(source_.read("/proc/stat"));
  const auto own_cpu_s = source_.own_cpu_s();
  const auto& before = stat_at_open_;
  if (!before || !stat || !own_cpu_s_at_open_ || !own_cpu_s || stat->cpus <= 0 ||
      stat->total <= before->total || stat->busy < before->busy) {
    return;
  }
  // /proc/stat samples at each tick while rusage is exact, so iobench's own time can exceed the
  // busy ticks by a little: clamped at 0.
  const double own_ticks =
      std::max(0.0, *own_cpu_s - *own_cpu_s_at_open_) * static_cast<double>(source_.ticks_per_s);
  const double others_ticks =
      std::max(0.0, static_cast<double>(stat->busy - before->busy) - own_ticks);
  load_.cpus = stat->cpus;
  load_.busy_cpus = static_cast<double>(stat->cpus) * others_ticks /
                    static_cast<double>(stat->total - before->total);
}

std::string busy_warning(const MachineLoad& load) {
  if (!load.busy_cpus || *load.busy_cpus < kBusyCpusThreshold) return {};
  return fmt::format(
      "other processes kept {:.1f} of {} CPUs busy in the {} ms as the runs started (iobench's own "
      "CPU time left out): a run kept waiting for a CPU by them, or that a burst of theirs "
      "overlapped, is marked disturbed "
      "(docs/driver.md, \"Disturbance\")",
      *load.busy_cpus, load.cpus, load.window.count());
}

}  // namespace iobench::run
