#include "driver/spawn/spawn_ops.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace iobench::spawn {
namespace {

// glibc 2.36 declares pidfd_open without C linkage in C++, and has no perf_event_open wrapper:
// call both system calls directly.
int real_pidfd_open(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

int real_perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd,
                         unsigned long flags) {
  return static_cast<int>(::syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags));
}

// Constant-initialized: the spawner executable has no C++ runtime to run constructors with.
SpawnOps g_ops{real_pidfd_open, real_perf_event_open};

}  // namespace

SpawnOps& spawn_ops() noexcept {
  return g_ops;
}

ScopedSpawnOps::ScopedSpawnOps(const SpawnOps& replacement) noexcept : saved_(spawn_ops()) {
  spawn_ops() = replacement;
}

ScopedSpawnOps::~ScopedSpawnOps() {
  spawn_ops() = saved_;
}

}  // namespace iobench::spawn
