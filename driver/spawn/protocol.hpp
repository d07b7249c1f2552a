#pragma once
// The one definition of the wire format between the driver (driver/spawn/spawner.cpp) and the
// spawner executable (driver/spawn/helper/main.cpp). Plain fixed-layout records: the spawner is
// built without the C++ runtime (docs/driver.md, "The spawner"), so this header may use only
// what needs no library code.
//
// Messages are SOCK_SEQPACKET records:
//   driver -> spawner  a request: RequestHeader, then cpu_count std::int32_t CPU numbers, then
//                      arg_count argv strings, counter_count counter names and env_count
//                      NAME=VALUE entries, each ending in NUL; the descriptors flagged in has_fd
//                      travel as SCM_RIGHTS, in stdin, stdout, stderr, drain order.
//   driver -> spawner  a cancel: the one byte kCancelTag (may arrive stale, between runs).
//   spawner -> driver  a Response, whole.
#include <sys/resource.h>

#include <cstddef>
#include <cstdint>

namespace iobench::spawn::wire {

inline constexpr char kRequestTag = 'R';
inline constexpr char kCancelTag = 'C';
inline constexpr char kResponseTag = 'A';
inline constexpr std::size_t kMaxRequestBytes = 256 * 1024;
inline constexpr std::uint32_t kMaxCounters = 16;
inline constexpr std::size_t kErrorBytes = 512;
inline constexpr std::size_t kRequestFds = 4;

struct RequestHeader {
  char tag = kRequestTag;
  // stdin, stdout, stderr (0: the default), and a pipe's read end for the spawner to drain while
  // it waits (pipe_drain.hpp; 0: none).
  std::uint8_t has_fd[kRequestFds] = {0, 0, 0, 0};
  std::uint32_t cpu_count = 0;  // pin the worker to these CPUs; 0: all
  std::uint32_t arg_count = 0;
  std::uint32_t counter_count = 0;
  std::uint32_t env_count = 0;  // set in the worker's environment, over the spawner's own
  double timeout_s = 0;         // 0: none
  double kill_grace_s = 2;
};

// The values of driver/spawn/spawner.hpp's SpawnOutcome.
enum class Outcome : std::int32_t { kExited, kSignaled, kTimedOut, kCancelled, kSpawnFailed };

struct CounterValue {
  std::uint8_t counted = 0;  // 0: the counter could not be opened or counted nothing
  double value = 0;          // scaled to the whole run when multiplexed
  double counted_fraction = 0;
};

struct Response {
  char tag = kResponseTag;
  Outcome outcome = Outcome::kSpawnFailed;
  std::int32_t exit_code = 0;
  std::int32_t term_signal = 0;
  std::int32_t strays_killed = 0;
  std::uint8_t stray_held_sink = 0;
  std::uint32_t counter_count = 0;  // one per requested counter, in request order
  std::int32_t pid = 0;             // the worker's; 0 when none was started
  // The worker's own time on a CPU and waiting for one (/proc/PID/schedstat's first two fields,
  // read while it was a zombie); run_delay_known is 0 when the kernel did not say.
  std::uint8_t run_delay_known = 0;
  std::uint64_t on_cpu_ns = 0;
  std::uint64_t run_delay_ns = 0;
  double elapsed_s = 0;
  // What the spawner read from the drain descriptor (drained is 0 when there was none): its byte
  // count, XXH3-64 and the errno of a failed read (0: none).
  std::uint8_t drained = 0;
  std::int32_t drain_errno = 0;
  std::uint64_t drained_bytes = 0;
  std::uint64_t drained_hash = 0;
  struct rusage usage {};
  char error[kErrorBytes] = {};  // NUL-terminated; empty unless kSpawnFailed (or wait4 failed)
  CounterValue counters[kMaxCounters] = {};
};

}  // namespace iobench::spawn::wire
