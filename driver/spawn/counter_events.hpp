#pragma once
// Opening and reading one kernel counter (docs/driver.md, "Counters"), with no library code beyond
// libc: the spawner executable uses it for each run and the driver to probe what it can count
// (driver/spawn/kernel_counters.hpp).
#include <sys/types.h>

#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

// Opens counter `name` (a kCounterNames entry) on `pid` (0: the caller), which must not have
// exec'd yet: disabled, enabled at its exec, inherited by every process it starts, close-on-exec.
// Returns the descriptor, or -1 with *error set (EINVAL: an unknown name).
int open_counter(const char* name, pid_t pid, int* error) noexcept;

// Opens counter `name` on the calling thread, disabled for good (not enabled at an exec, not
// inherited): it counts nothing, but while it is open the kernel keeps the event's type registered,
// so closing a run's counter does not wait to unregister it (for the syscalls tracepoint, an RCU
// grace period, tens of milliseconds on a VM; docs/driver.md, "Counters"). Returns the
// descriptor, or -1 with *error set.
int hold_counter(const char* name, int* error) noexcept;

// Reads an open counter after the process and its descendants are gone (so the counts of exited
// children are folded in); a multiplexed count is scaled to the whole run.
wire::CounterValue read_counter(int fd) noexcept;

}  // namespace iobench::spawn
