#include "driver/spawn/kernel_counters.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/fd.hpp"
#include "driver/spawn/counter_events.hpp"

namespace iobench::spawn {
namespace {

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

}  // namespace

std::vector<CounterProblem> probe_counters(const std::vector<std::string>& names) {
  std::vector<CounterProblem> problems;
  for (const auto& name : names) {
    int error = 0;
    const UniqueFd fd(open_counter(name.c_str(), 0, &error));
    if (!fd) problems.push_back({name, error, explain(name, error)});
  }
  return problems;
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
    text.append(names).append(" (").append(reason).append(")");
  }
  return text;
}

}  // namespace iobench::spawn
