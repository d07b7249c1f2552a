#pragma once
// Starting the worker of one request for measure() (measure.hpp): its program found, this thread
// pinned to the request's CPUs while it starts, the child in its own process group with its
// signals at their defaults (docs/driver.md, "The spawner"). Part of the spawner's libc-only
// core.
#include <sched.h>
#include <sys/types.h>

#include <cstddef>

#include "driver/spawn/measure.hpp"
#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

// The first executable file called `name` in $PATH, into `out`; false when there is none.
bool find_in_path(const char* name, char* out, std::size_t out_size) noexcept;

// The program to exec, into `path` (PATH_MAX bytes): `name` itself when it holds a '/', else
// found in $PATH, each name looked up once per spawner (it serves one matrix). False, with the
// reason in response.error, when there is none.
bool resolve_executable(const char* name, char* path, wire::Response& response);

// Pins this thread to the request's CPUs for the spawn (the child inherits the mask at the fork)
// and puts the old mask back afterwards. A pin the kernel refuses is the run's error.
class ScopedPin {
 public:
  ScopedPin(const MeasureRequest& request, wire::Response& response);
  ScopedPin(const ScopedPin&) = delete;
  ScopedPin& operator=(const ScopedPin&) = delete;
  ~ScopedPin() { restore(); }
  void restore();
  // Once the worker runs: this process (the pipe sink's reader) keeps off the worker's CPUs, on
  // the others it may use, until restore(); where there are none, as restore().
  void keep_off_worker_cpus();
  [[nodiscard]] bool failed() const { return failed_; }

 private:
  cpu_set_t saved_{};
  cpu_set_t wanted_{};
  bool pinned_ = false;
  bool failed_ = false;
};

// Without counters: vfork, so no page table is copied and the spawner waits only until the
// exec. Returns the pid, or -1 with the reason in response.error.
pid_t spawn_shared(const MeasureRequest& request, const char* path, int in_fd, int out_fd,
                   wire::Response& response);

// With counters: fork, and hold the child before its exec until request.counters are open on it
// (they start at the exec). Returns the pid, or -1 with the reason in response.error; the
// counters' descriptors go to counter_fds (-1 for one that could not be opened).
pid_t spawn_held(const MeasureRequest& request, const char* path, int in_fd, int out_fd,
                 int* counter_fds, wire::Response& response);

}  // namespace iobench::spawn
