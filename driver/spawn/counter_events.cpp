#include "driver/spawn/counter_events.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "driver/spawn/spawn_ops.hpp"

namespace iobench::spawn {
namespace {

struct EventCode {
  const char* name;
  std::uint32_t type;
  std::uint64_t config;
};

constexpr EventCode kFixed[] = {
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

constexpr const char* kTracepointIdPaths[] = {
    "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
    "/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id"};

bool read_tracepoint_id(std::uint64_t& id) {
  for (const char* path : kTracepointIdPaths) {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char text[32] = {};
    const ssize_t got = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    if (got <= 0 || text[0] < '0' || text[0] > '9') continue;
    id = 0;
    for (const char* c = text; *c >= '0' && *c <= '9'; ++c)
      id = id * 10 + static_cast<std::uint64_t>(*c - '0');
    return true;
  }
  return false;
}

// The id of raw_syscalls:sys_enter from tracefs, mounting tracefs where it is not mounted and
// we may (root). Looked up once per process (a plain static: no guard, no library code).
bool syscall_tracepoint_id(std::uint64_t& id, int& error) {
  static bool looked = false;
  static std::uint64_t found_id = 0;
  static int found_error = ENOENT;
  if (!looked) {
    looked = true;
    if (read_tracepoint_id(found_id)) {
      found_error = 0;
    } else if (::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0) {
      found_error = errno == EPERM ? EACCES : ENOENT;
    } else if (read_tracepoint_id(found_id)) {
      found_error = 0;
    }
  }
  id = found_id;
  error = found_error;
  return found_error == 0;
}

// The event of counter `name`, with no flags set; false with *error set (EINVAL: unknown name).
bool counter_event(const char* name, perf_event_attr& attr, int* error) noexcept {
  attr = perf_event_attr{};
  attr.size = sizeof attr;
  if (std::strcmp(name, "syscalls") == 0) {
    std::uint64_t id = 0;
    if (!syscall_tracepoint_id(id, *error)) return false;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = id;
    return true;
  }
  for (const EventCode& candidate : kFixed) {
    if (std::strcmp(name, candidate.name) != 0) continue;
    attr.type = candidate.type;
    attr.config = candidate.config;
    return true;
  }
  *error = EINVAL;
  return false;
}

int open_event(perf_event_attr& attr, pid_t pid, int* error) noexcept {
  attr.disabled = 1;
  attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  const int fd = spawn_ops().perf_event_open(&attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) *error = errno;
  return fd;
}

}  // namespace

int open_counter(const char* name, pid_t pid, int* error) noexcept {
  perf_event_attr attr;
  if (!counter_event(name, attr, error)) return -1;
  attr.enable_on_exec = 1;  // counting starts at the worker's exec: none of the spawner's work
  attr.inherit = 1;         // every process the worker starts, folded in when it exits
  return open_event(attr, pid, error);
}

int hold_counter(const char* name, int* error) noexcept {
  perf_event_attr attr;
  if (!counter_event(name, attr, error)) return -1;
  return open_event(attr, 0, error);  // never enabled, never inherited: it counts nothing
}

wire::CounterValue read_counter(int fd) noexcept {
  wire::CounterValue reading;
  struct {
    std::uint64_t value, enabled_ns, running_ns;
  } data{};
  if (fd >= 0 && ::read(fd, &data, sizeof data) == sizeof data && data.enabled_ns > 0 &&
      data.running_ns > 0) {
    // Multiplexed (more hardware events than the PMU has slots): the kernel counted only part
    // of the time; scale to the whole run, as perf stat does, and say how much was counted.
    reading.counted = 1;
    reading.counted_fraction =
        static_cast<double>(data.running_ns) / static_cast<double>(data.enabled_ns);
    const double fraction = reading.counted_fraction < 1.0 ? reading.counted_fraction : 1.0;
    reading.value = static_cast<double>(data.value) / fraction;
  }
  return reading;
}

}  // namespace iobench::spawn
