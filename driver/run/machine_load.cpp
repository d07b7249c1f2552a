#include "driver/run/machine_load.hpp"

#include <fmt/core.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

namespace iobench {
namespace {

struct CpuTicks {
  std::uint64_t busy = 0;
  std::uint64_t total = 0;
  int cpus = 0;
};

// The aggregate "cpu" line of /proc/stat: user nice system idle iowait irq softirq steal (guest
// time is already inside user and nice). Idle and iowait are idle; the rest, steal too, is time
// the runs could not have had.
std::optional<CpuTicks> parse_proc_stat(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::optional<CpuTicks> ticks;
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
    ticks = CpuTicks{};
    ticks->busy = value[0] + value[1] + value[2] + value[5] + value[6] + value[7];
    ticks->total = ticks->busy + value[3] + value[4];
  }
  return ticks;
}

}  // namespace

ProcSource real_proc_source() {
  return {[](const char* path) {
            std::ifstream in(path);
            return std::string(std::istreambuf_iterator<char>(in), {});
          },
          [](std::chrono::milliseconds window) { std::this_thread::sleep_for(window); }};
}

std::optional<double> load_average_1min(const ProcSource& source) {
  std::istringstream in(source.read("/proc/loadavg"));
  double load = 0;
  if (!(in >> load)) return std::nullopt;
  return load;
}

MachineLoad sample_machine_load(const ProcSource& source, std::chrono::milliseconds window) {
  MachineLoad load;
  load.load_average_1min = load_average_1min(source);
  const auto before = parse_proc_stat(source.read("/proc/stat"));
  source.wait(window);
  const auto after = parse_proc_stat(source.read("/proc/stat"));
  if (!before || !after || after->cpus <= 0 || after->total <= before->total ||
      after->busy < before->busy) {
    return load;
  }
  load.cpus = after->cpus;
  load.window = window;
  load.busy_cpus = static_cast<double>(after->cpus) *
                   static_cast<double>(after->busy - before->busy) /
                   static_cast<double>(after->total - before->total);
  return load;
}

std::string busy_warning(const MachineLoad& load) {
  if (!load.busy_cpus || *load.busy_cpus < kBusyCpusThreshold) return {};
  return fmt::format(
      "other processes kept {:.1f} of {} CPUs busy in the {} ms before the runs, so the figures "
      "will be inflated",
      *load.busy_cpus, load.cpus, load.window.count());
}

}  // namespace iobench
