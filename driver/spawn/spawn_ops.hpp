#pragma once
// The spawner's own system-call seam (like common/sysio.hpp): the calls whose failure changes
// how a run is started or measured go through spawn_ops(), so tests can force the paths a
// machine rarely takes (no pidfd: old kernel, seccomp, EMFILE; perf_event_open refused).
#include <linux/perf_event.h>
#include <sys/types.h>

namespace iobench::spawn {

struct SpawnOps {
  // Both return a descriptor, or -1 with errno set.
  int (*pidfd_open)(pid_t pid);
  int (*perf_event_open)(perf_event_attr* attr, pid_t pid, int cpu, int group_fd,
                         unsigned long flags);
};

// The operations in force; the real system calls unless a test swapped them.
SpawnOps& spawn_ops() noexcept;

// Swaps the operations for the lifetime of the object (tests only).
class ScopedSpawnOps {
 public:
  explicit ScopedSpawnOps(const SpawnOps& replacement) noexcept;
  ScopedSpawnOps(const ScopedSpawnOps&) = delete;
  ScopedSpawnOps& operator=(const ScopedSpawnOps&) = delete;
  ~ScopedSpawnOps();

 private:
  SpawnOps saved_;
};

}  // namespace iobench::spawn
