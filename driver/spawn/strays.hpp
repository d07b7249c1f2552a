#pragma once
// The processes a worker leaves behind (docs/driver.md, "Strays"): the spawner is a child
// subreaper, so what a worker double-forks or setsid()s becomes the spawner's child when its
// parent exits, and is found, counted and killed here after the worker's own wait4. Part of the
// spawner's libc-only core (measure.hpp).
#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>

#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

// A small set of pids (a spawner has the worker and its strays as children, rarely more).
struct PidList {
  static constexpr std::size_t kCapacity = 1024;
  pid_t pids[kCapacity];
  std::size_t count = 0;
  [[nodiscard]] bool contains(pid_t pid) const {
    for (std::size_t i = 0; i < count; ++i)
      if (pids[i] == pid) return true;
    return false;
  }
  void add(pid_t pid) {
    if (count < kCapacity && !contains(pid)) pids[count++] = pid;
  }
};

// What iobench reads of a /proc/PID/stat text. Its fields are counted from the last ')': the
// command name before it may hold spaces and ')'.
struct PidStat {
  char state = 'Z';  // a process already gone reads as a zombie
  pid_t process_group = 0;
  unsigned long long cpu_ticks = 0;  // utime + stime + cutime + cstime (fields 14 to 17)
};

// False, leaving `stat` as it was, when the text is not a whole stat line up to field 17.
bool parse_pid_stat(const char* text, PidStat& stat);

// This process' children, from /proc/self/task/*/children (Linux 3.5+, CONFIG_PROC_CHILDREN).
void children_of_self(PidList& children);

// Every process that became our child since `before` and is not the worker `pgid`'s dying group
// (after a timeout or cancel, group_terminated) is counted in response.strays_killed (and
// stray_held_sink when it holds `sink` open), killed and reaped, round after round, since killing
// one hands its own children to us. Then the worker's group gets SIGKILL.
void reap_strays(pid_t pgid, bool group_terminated, const PidList& before, const struct stat* sink,
                 wire::Response& response);

}  // namespace iobench::spawn
