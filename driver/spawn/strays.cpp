#include "driver/spawn/strays.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace iobench::spawn {
namespace {

// Reads a small /proc file into `buffer` (NUL-terminated); its length, or -1.
ssize_t read_small_file(const char* path, char* buffer, std::size_t size) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  std::size_t used = 0;
  while (used + 1 < size) {
    const ssize_t got = ::read(fd, buffer + used, size - 1 - used);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    used += static_cast<std::size_t>(got);
  }
  ::close(fd);
  buffer[used] = '\0';
  return static_cast<ssize_t>(used);
}

// Whether this process has any child, running or ended: one waitid instead of the /proc walk,
// which a spawner between runs (no child left) never needs. (A reparented stray's exit signal is
// SIGCHLD, and __WALL covers any other.)
bool has_children() {
  siginfo_t info{};
  return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0 || errno != ECHILD;
}

PidStat process_state(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  char text[1024];
  PidStat stat;
  if (read_small_file(path, text, sizeof text) > 0) parse_pid_stat(text, stat);
  return stat;
}

bool holds_file(pid_t pid, const struct stat& file) {
  char fd_dir[64];
  std::snprintf(fd_dir, sizeof fd_dir, "/proc/%d/fd", static_cast<int>(pid));
  DIR* fds = ::opendir(fd_dir);
  if (fds == nullptr) return false;
  bool holds = false;
  while (const dirent* entry = ::readdir(fds)) {
    if (entry->d_name[0] == '.') continue;
    struct stat st {};
    if (::fstatat(::dirfd(fds), entry->d_name, &st, 0) == 0 && st.st_dev == file.st_dev &&
        st.st_ino == file.st_ino) {
      holds = true;
      break;
    }
  }
  ::closedir(fds);
  return holds;
}

}  // namespace

bool parse_pid_stat(const char* text, PidStat& stat) {
  const char* close_paren = std::strrchr(text, ')');
  // After "(comm)": state, then fields 4 (ppid) to 17 (cstime) as integers.
  if (close_paren == nullptr || close_paren[1] != ' ' || close_paren[2] == '\0') return false;
  long long field[18] = {};
  const char* at = close_paren + 3;
  for (int i = 4; i <= 17; ++i) {
    char* end = nullptr;
    field[i] = std::strtoll(at, &end, 10);
    if (end == at) return false;
    at = end;
  }
  if (field[14] < 0 || field[15] < 0 || field[16] < 0 || field[17] < 0) return false;
  stat.state = close_paren[2];
  stat.process_group = static_cast<pid_t>(field[5]);
  stat.cpu_ticks = static_cast<unsigned long long>(field[14] + field[15] + field[16] + field[17]);
  return true;
}

void children_of_self(PidList& children) {
  children.count = 0;
  if (!has_children()) return;
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    char path[sizeof "/proc/self/task//children" + sizeof entry->d_name];
    std::snprintf(path, sizeof path, "/proc/self/task/%s/children", entry->d_name);
    char text[8192];
    if (read_small_file(path, text, sizeof text) <= 0) continue;
    for (char* c = text; *c != '\0';) {
      char* end = nullptr;
      const long child = std::strtol(c, &end, 10);
      if (end == c) break;
      children.add(static_cast<pid_t>(child));
      c = end;
    }
  }
  ::closedir(tasks);
}

void reap_strays(pid_t pgid, bool group_terminated, const PidList& before, const struct stat* sink,
                 wire::Response& response) {
  PidList counted;
  PidList children;
  PidList strays;
  for (int round = 0; round < 1000; ++round) {
    children_of_self(children);
    strays.count = 0;
    for (std::size_t i = 0; i < children.count; ++i) {
      if (!before.contains(children.pids[i])) strays.add(children.pids[i]);
    }
    if (strays.count == 0) break;
    // Look at every live stray before killing any: a killed process drops its descriptors.
    for (std::size_t i = 0; i < strays.count; ++i) {
      const pid_t stray = strays.pids[i];
      const PidStat state = process_state(stray);
      if (state.state == 'Z' || counted.contains(stray)) continue;  // finished, not a stray
      counted.add(stray);
      // After a timeout or cancel the whole group was signalled with the worker: its members
      // are still dying, not left behind.
      if (group_terminated && state.process_group == pgid) continue;
      ++response.strays_killed;
      if (sink != nullptr && holds_file(stray, *sink)) response.stray_held_sink = 1;
    }
    ::kill(-pgid, SIGKILL);
    for (std::size_t i = 0; i < strays.count; ++i) ::kill(strays.pids[i], SIGKILL);
    for (std::size_t i = 0; i < strays.count; ++i) {
      while (::waitpid(strays.pids[i], nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  ::kill(-pgid, SIGKILL);  // without a subreaper, what is left of the group at least goes
}

}  // namespace iobench::spawn
