#include "driver/spawn/counters.hpp"

#include <linux/perf_event.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>

#include "driver/spawn/spawn_ops.hpp"

namespace iobench {
namespace {

constexpr std::uint32_t kTracepoint = PERF_TYPE_TRACEPOINT;

struct EventCode {
  std::uint32_t type;
  std::uint64_t config;
};

// The id of raw_syscalls:sys_enter from tracefs, mounting tracefs where it is not mounted and
// we may (root). Looked up once per process.
std::optional<std::uint64_t> syscall_tracepoint_id(int& error) {
  static const auto found = [] {
    std::pair<std::optional<std::uint64_t>, int> answer{std::nullopt, ENOENT};
    const auto read_id = [&answer] {
      for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
        std::ifstream in(std::string(root) + "/events/raw_syscalls/sys_enter/id");
        std::uint64_t id = 0;
        if (in >> id) {
          answer.first = id;
          return true;
        }
      }
      return false;
    };
    if (read_id()) return answer;
    if (::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0) {
      answer.second = errno == EPERM ? EACCES : ENOENT;
      return answer;
    }
    read_id();
    return answer;
  }();
  error = found.second;
  return found.first;
}

std::optional<EventCode> event_code(std::string_view name, int& error) {
  static const std::map<std::string_view, EventCode> kFixed = {
      {"context-switches", {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES}},
      {"cpu-migrations", {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS}},
      {"page-faults", {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS}},
      {"task-clock", {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK}},
      {"cycles", {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES}},
      {"instructions", {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS}},
      {"cache-misses", {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES}},
      {"branch-misses", {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES}},
  };
  if (name == "syscalls") {
    const auto id = syscall_tracepoint_id(error);
    if (!id) return std::nullopt;
    return EventCode{kTracepoint, *id};
  }
  const auto it = kFixed.find(name);
  if (it == kFixed.end()) {
    error = EINVAL;
    return std::nullopt;
  }
  return it->second;
}

int paranoid_level() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  int level = 2;
  in >> level;
  return level;
}

std::string explain(std::string_view name, int error) {
  switch (error) {
    case ENOENT:
    case EOPNOTSUPP:
      if (name == "syscalls") return "ENOENT: no raw_syscalls:sys_enter tracepoint in tracefs";
      return std::string(error == ENOENT ? "ENOENT" : "EOPNOTSUPP") +
             ": no PMU on this machine (as in most VMs)";
    case EACCES:
    case EPERM:
      if (name == "syscalls" && ::geteuid() != 0) {
        return "EACCES: the syscalls tracepoint needs root (or tracefs readable and "
               "perf_event_paranoid -1)";
      }
      return "EACCES: perf_event_paranoid is " + std::to_string(paranoid_level()) +
             "; run as root or set kernel.perf_event_paranoid to -1";
    default:
      return std::string(strerrordesc_np(error) != nullptr ? strerrordesc_np(error) : "error") +
             " (errno " + std::to_string(error) + ")";
  }
}

// Opens one counter on pid; -1 with `error` set when it cannot.
int open_event(std::string_view name, pid_t pid, int& error) {
  const auto code = event_code(name, error);
  if (!code) return -1;
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = code->type;
  attr.config = code->config;
  attr.disabled = 1;
  attr.enable_on_exec = 1;  // counting starts at the worker's exec: none of the spawner's work
  attr.inherit = 1;         // every process the worker starts, folded in when it exits
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  const int fd = spawn_ops().perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) error = errno;
  return fd;
}

}  // namespace

CounterSet CounterSet::open(const std::vector<std::string>& names, pid_t pid) {
  CounterSet set;
  for (const auto& name : names) {
    int error = 0;
    UniqueFd fd(open_event(name, pid, error));
    if (!fd) set.problems_.push_back({name, error, explain(name, error)});
    set.events_.push_back({name, std::move(fd)});
  }
  return set;
}

std::vector<CounterReading> CounterSet::read() const {
  std::vector<CounterReading> readings;
  for (const auto& event : events_) {
    CounterReading reading{event.name, std::nullopt, 0};
    struct {
      std::uint64_t value, enabled_ns, running_ns;
    } data{};
    if (event.fd && ::read(event.fd.get(), &data, sizeof data) == sizeof data &&
        data.enabled_ns > 0 && data.running_ns > 0) {
      // Multiplexed (more hardware events than the PMU has slots): the kernel counted only part
      // of the time; scale to the whole run, as perf stat does, and say how much was counted.
      reading.counted_fraction =
          static_cast<double>(data.running_ns) / static_cast<double>(data.enabled_ns);
      reading.value = static_cast<double>(data.value) / std::min(reading.counted_fraction, 1.0);
    }
    readings.push_back(std::move(reading));
  }
  return readings;
}

std::vector<CounterProblem> probe_counters(const std::vector<std::string>& names) {
  return CounterSet::open(names, 0).problems();
}

std::string describe_counter_problems(const std::vector<CounterProblem>& problems) {
  std::vector<std::pair<std::string, std::string>> by_reason;  // reason, names; first-seen order
  for (const auto& problem : problems) {
    auto it = std::find_if(by_reason.begin(), by_reason.end(),
                           [&](const auto& entry) { return entry.first == problem.reason; });
    if (it == by_reason.end()) {
      by_reason.emplace_back(problem.reason, problem.name);
    } else {
      it->second += ", " + problem.name;
    }
  }
  std::string text;
  for (const auto& [reason, names] : by_reason) {
    if (!text.empty()) text += "; ";
    text += names + " (" + reason + ")";
  }
  return text;
}

}  // namespace iobench
