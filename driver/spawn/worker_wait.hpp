#pragma once
// Waiting for the worker measure() started (measure.hpp): until it exits, its deadline passes or
// the driver cancels it; and ending its process group. Part of the spawner's libc-only core.
#include <sys/types.h>

namespace iobench::spawn {

class PipeDrain;

// How a wait for the worker ended.
enum class WaitEnd {
  kExited,     // it exited (or cannot be waited for: wait4, which blocks, reaps it)
  kDeadline,   // deadline_s passed first
  kCancelled,  // a byte became readable on cancel_fd first
};

// Waits with the pidfd when there is one (>= 0), else by SIGCHLD. deadline_s is on
// monotonic_s() (core_util.hpp), 0 for none; cancel_fd -1 for none. While it waits, what arrives
// on the drain's pipe is read (a worker blocked on a full pipe must not wait for its own end);
// null for none. The worker is not reaped.
WaitEnd wait_for_exit(pid_t pid, int pidfd, int cancel_fd, double deadline_s, PipeDrain* drain);

// SIGTERM to the worker's process group, then SIGKILL once the grace period is over, draining as
// wait_for_exit does. Returns the last signal sent.
int terminate_group(pid_t pgid, int pidfd, double grace_s, PipeDrain* drain);

}  // namespace iobench::spawn
