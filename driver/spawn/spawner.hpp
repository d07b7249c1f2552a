#pragma once
// Spawning and measuring one worker, exactly.
//
// A child's ru_maxrss starts at the RSS of the process it was forked (or vforked) from, so
// workers are never started by the driver itself (which grows as it loads configs and results).
// Instead the driver starts the *spawner* first thing in main(): iobench-spawner, a separate
// static executable without the C++ runtime (driver/spawn/helper/), a few hundred KiB resident.
// The driver sends it spawn requests (argv plus the stdin/stdout/stderr descriptors, passed with
// SCM_RIGHTS) over a socketpair (driver/spawn/protocol.hpp); the spawner starts each worker
// (vfork and execve; with counters, fork, the child held before its execve until the counters
// are open on it: driver/spawn/kernel_counters.hpp; docs/driver.md, "One process per run"), reaps
// it with its own wait4(), and sends back the figures. It is a child subreaper: what a worker
// leaves behind is killed and reaped before the next run, and the result says so.
#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/fd.hpp"
#include "driver/spawn/kernel_counters.hpp"
#include "driver/spawn/response_wait.hpp"

namespace iobench::spawn {

struct SpawnRequest {
  std::vector<std::string> argv;  // argv[0]: a path, or a name looked up in PATH
  int stdin_fd = -1;              // -1: /dev/null
  int stdout_fd = -1;             // -1: /dev/null
  int stderr_fd = -1;             // -1: the spawner's stderr (the driver's)
  // A pipe's read end (the pipe sink's; stdout_fd its write end) that the spawner reads, counts
  // and hashes while it waits for the worker (pipe_drain.hpp); -1: none.
  int drain_fd = -1;
  std::vector<int> cpus;         // pin the worker to these CPUs (sched_setaffinity); empty: all
  std::vector<std::string> env;  // NAME=VALUE each, set over the environment the worker inherits
  std::vector<std::string> counters;  // kCounterNames to count for the worker and descendants
  double timeout_s = 0;               // 0: none. Then SIGTERM to the worker's process group, and
  double kill_grace_s = 2;            // SIGKILL after this grace period
};

enum class SpawnOutcome {
  kExited,       // exit_code is set
  kSignaled,     // term_signal is set
  kTimedOut,     // killed after timeout_s; term_signal is the signal that ended it
  kCancelled,    // killed because the driver asked (SIGINT/SIGTERM)
  kSpawnFailed,  // could not start (or be pinned to its CPUs); error says why
};

// What the spawner read from a request's drain_fd.
struct DrainedOutput {
  std::uint64_t bytes = 0;
  std::uint64_t xxh3 = 0;  // XXH3-64 of those bytes
  int read_errno = 0;      // a failed read's errno (the output is then incomplete); 0: none
};

struct SpawnResult {
  SpawnOutcome outcome = SpawnOutcome::kSpawnFailed;
  int exit_code = 0;
  int term_signal = 0;
  double elapsed_s = 0;  // CLOCK_MONOTONIC from just before the spawn to just after wait4
  struct rusage usage {};
  pid_t pid = 0;  // the worker's process id; 0 when none was started
  // The time the worker process itself (not its children) was runnable but waited for a CPU,
  // and the time it ran on one: its /proc/PID/schedstat run_delay and first field, read once it
  // had exited, before it was reaped; empty when the kernel does not say (docs/driver.md,
  // "Disturbance").
  std::optional<double> own_wait_cpu_s;
  std::optional<double> own_on_cpu_s;
  std::string error;
  // Processes the worker left running after its own exit (found because the spawner is a child
  // subreaper), killed and reaped before the result came back.
  int strays_killed = 0;
  bool stray_held_sink = false;          // one of them still had the worker's stdout open
  std::vector<CounterReading> counters;  // one per requested counter, in request order
  std::optional<DrainedOutput> drained;  // set when the request gave a drain_fd
};

// The first executable file called `name` in $PATH, or an empty string: the spawner's own lookup
// (measure.hpp), so the driver names the program the spawner will run.
std::string find_in_path(const std::string& name);

// Runs request.argv from this process, with the spawner's own code (driver/spawn/measure.hpp):
// waits for it (or the timeout, or a byte readable on cancel_fd when it is >= 0; with a pidfd,
// else by SIGCHLD) and reaps it with wait4. The worker runs in its own process group, which is
// killed after it ends; strays that came to this process (a subreaper) are killed and reaped
// too, so no descendant outlives the run. For tests: a run measured here inherits this
// process's size.
SpawnResult spawn_and_measure(const SpawnRequest& request, int cancel_fd = -1);

// The spawner executable beside this one (as the worker is found): DIR/iobench-spawner.
std::string spawner_beside_self();

class Spawner {
 public:
  // Starts the process-wide spawner (spawner_beside_self()) now, if not yet running.
  static void start_global();
  // The process-wide spawner (started on first use if start_global was not called).
  static Spawner& global();

  // Forks and execs `executable FD` (iobench-spawner), FD its end of the channel. The exec
  // matters: a forked copy of a big process would pass its RSS on to every worker. Throws when
  // the executable is missing.
  explicit Spawner(const std::string& executable);
  Spawner(const Spawner&) = delete;
  Spawner& operator=(const Spawner&) = delete;
  ~Spawner();  // closes the channel; the spawner kills any running worker and exits

  // Runs one worker to completion in the spawner process. Thread-compatible, not thread-safe:
  // one run at a time.
  SpawnResult run(const SpawnRequest& request);

  // Asks the spawner to end the running worker (its whole process group). Async-signal-safe:
  // meant for a SIGINT/SIGTERM handler. The pending run() returns kCancelled.
  void cancel() const noexcept;

  [[nodiscard]] pid_t pid() const noexcept { return pid_; }

  // A short run's result comes back within a couple of milliseconds: wait for it awake.
  static constexpr double kResponseSpinS = 0.002;

 private:
  UniqueFd channel_;
  pid_t pid_ = -1;
  ResponseWait response_wait_{kResponseSpinS};
};

}  // namespace iobench::spawn
