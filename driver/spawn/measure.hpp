#pragma once
// One worker started, timed, reaped with wait4, its strays killed, its counters read: the core of
// the spawner executable (driver/spawn/helper/), also linked into iobench_spawn so that
// spawn_and_measure runs the very same code in-process (tests). libc only (protocol.hpp says
// why): no exceptions, no allocation beyond malloc. Its steps have their own files: starting the
// worker (worker_start.hpp), waiting for it (worker_wait.hpp), its strays (strays.hpp) and its
// counters (counter_events.hpp).
#include <cstddef>

#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

// A request as the spawner sees it: pointers into the received record, which must outlive it.
class MeasureRequest {
 public:
  MeasureRequest() = default;
  MeasureRequest(const MeasureRequest&) = delete;
  MeasureRequest& operator=(const MeasureRequest&) = delete;
  ~MeasureRequest();

  // Parses one request record (protocol.hpp); `fds` are the descriptors that came with it, in
  // order. Returns false, with the reason in `error`, when the record is malformed.
  bool parse(const char* data, std::size_t size, const int* fds, std::size_t fd_count, char* error,
             std::size_t error_size) noexcept;

  char** argv = nullptr;  // arg_count entries and a null; argv[0] a path or a name in PATH
  std::size_t arg_count = 0;
  const char* counters[wire::kMaxCounters] = {};
  std::size_t counter_count = 0;
  // The worker's environment: the spawner's own with the request's NAME=VALUE entries set over
  // it; null when the request sets none (then the spawner's own, as it is).
  char** envp = nullptr;
  const char* cpus = nullptr;  // cpu_count unaligned std::int32_t
  std::size_t cpu_count = 0;
  int stdin_fd = -1;   // -1: /dev/null
  int stdout_fd = -1;  // -1: /dev/null
  int stderr_fd = -1;  // -1: the spawner's own
  int drain_fd = -1;   // a pipe's read end to drain while waiting (pipe_drain.hpp); -1: none
  double timeout_s = 0;
  double kill_grace_s = 2;
};

// Runs the request to completion; waits for its exit, its deadline, or a byte readable on
// cancel_fd when it is >= 0 (with a pidfd, else by SIGCHLD). Fills `response`, which must be
// fresh.
void measure(const MeasureRequest& request, int cancel_fd, wire::Response& response) noexcept;

// Waits awake, for at most spin_s, until `fd` is readable: poll without a timeout, yielding the
// CPU between tries. A reply that comes soon (the next request, a short run's result) then needs
// no wake-up of a halted CPU (on a VM tens of microseconds, a tenth of a `true`). Returns early
// when readable, else after spin_s; the caller's blocking read follows either way.
void await_readable_awake(int fd, double spin_s) noexcept;

}  // namespace iobench::spawn
