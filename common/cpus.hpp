#pragma once
// The CPUs this process may run on, the one answer to "which CPUs are there": what "every CPU"
// means for `gen --threads 0` and the worker's `parallel` reader, which CPUs a config's `cpus`
// may pin the worker to, and where the pipe drain may run. Kernel CPU lists ("0-3,6") both ways.
#include <sched.h>

#include <cstddef>
#include <string>
#include <vector>

namespace iobench {

// The CPUs of this process's affinity mask (which taskset and cpusets narrow), ascending; when
// the mask cannot be read, the online CPUs (/sys/devices/system/cpu/online, else the first
// sysconf(_SC_NPROCESSORS_ONLN)); never empty (CPU 0 when nothing says).
std::vector<int> usable_cpu_list();

// How many: usable_cpu_list().size(), at least 1.
std::size_t usable_cpus();

// The CPUs in a kernel CPU list such as /sys/devices/system/cpu/online ("0-3,6"); empty when the
// text is not one.
std::vector<int> parse_cpu_list(const std::string& text);

// The kernel's spelling of ascending CPUs, each run of consecutive ones a range: {0,1,2,3,6} ->
// "0-3,6".
std::string format_cpu_list(const std::vector<int>& cpus);

// The CPUs in a CPU set, in ascending order.
std::vector<int> cpu_list(const cpu_set_t& set);

}  // namespace iobench
