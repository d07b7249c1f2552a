#include "common/cpus.hpp"

#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>

namespace iobench {

std::vector<int> usable_cpu_list() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return cpu_list(set);
  std::string online_text;
  std::getline(std::ifstream("/sys/devices/system/cpu/online"), online_text);
  if (std::vector<int> online = parse_cpu_list(online_text); !online.empty()) return online;
  const long online = ::sysconf(_SC_NPROCESSORS_ONLN);
  std::vector<int> first(online > 0 ? static_cast<std::size_t>(online) : 1);
  for (std::size_t cpu = 0; cpu < first.size(); ++cpu) first[cpu] = static_cast<int>(cpu);
  return first;
}

std::size_t usable_cpus() {
  return usable_cpu_list().size();
}

std::vector<int> parse_cpu_list(const std::string& text) {
  std::vector<int> cpus;
  std::stringstream ranges(text);
  std::string range;
  while (std::getline(ranges, range, ',')) {
    int first = 0;
    int last = 0;
    const char* end = range.data() + range.size();
    const auto dash = range.find('-');
    const char* first_end = dash == std::string::npos ? end : range.data() + dash;
    if (std::from_chars(range.data(), first_end, first).ptr != first_end) return {};
    last = first;
    if (dash != std::string::npos && std::from_chars(first_end + 1, end, last).ptr != end) {
      return {};
    }
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string text;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t last = i;  // the end of the run of consecutive CPUs starting at i
    while (last + 1 < cpus.size() && cpus[last + 1] == cpus[last] + 1) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(cpus[i]);
    if (last > i) text += '-' + std::to_string(cpus[last]);
    i = last + 1;
  }
  return text;
}

std::vector<int> cpu_list(const cpu_set_t& set) {
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(static_cast<std::size_t>(cpu), &set)) cpus.push_back(cpu);
  }
  return cpus;
}

}  // namespace iobench
