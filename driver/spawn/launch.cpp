// spawn_and_measure: one worker started, timed, reaped with wait4, its strays killed, its
// counters read. Runs in the spawner process (driver/spawn/spawner.cpp), or in a test.
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>
#include <system_error>

#include "driver/spawn/counters.hpp"
#include "driver/spawn/spawn_ops.hpp"
#include "driver/spawn/spawner.hpp"

extern char** environ;

namespace iobench {
namespace {

double monotonic_s() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

std::string resolve_executable(const std::string& name, std::string& error) {
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) {
      error = name + ": " + std::strerror(errno);
      return {};
    }
    return name;
  }
  // The spawner serves one matrix: cache lookups so a run costs no PATH walk.
  static std::map<std::string, std::string> resolved;
  auto it = resolved.find(name);
  if (it == resolved.end()) it = resolved.emplace(name, find_in_path(name)).first;
  if (it->second.empty()) error = name + ": command not found in PATH";
  return it->second;
}

// Waits with a pidfd: poll until it is readable (exited), the deadline passes or cancel_fd is
// readable.
int wait_with_pidfd(int pidfd, int cancel_fd, double deadline_s) {
  for (;;) {
    std::array<pollfd, 2> fds{{{pidfd, POLLIN, 0}, {cancel_fd, POLLIN, 0}}};
    int timeout_ms = -1;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) return 0;
      timeout_ms = static_cast<int>(left_s * 1000) + 1;
    }
    const int ready = ::poll(fds.data(), cancel_fd >= 0 ? 2 : 1, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "poll");
    }
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) return 1;
    if (cancel_fd >= 0 && fds[1].revents != 0) return 2;
  }
}

void on_sigchld(int /*signal*/) {}

// Waits without a pidfd (old kernel, seccomp, EMFILE): SIGCHLD stays blocked except inside
// ppoll, so a child's exit interrupts it at once (no polling interval to add to the wait), and
// waitid(WNOWAIT) tells whether it was this child, leaving it for wait4.
int wait_with_sigchld(pid_t pid, int cancel_fd, double deadline_s) {
  struct sigaction action {};
  action.sa_handler = on_sigchld;  // a handler, not SIG_DFL: an ignored signal wakes nobody
  sigemptyset(&action.sa_mask);
  struct sigaction saved_action {};
  ::sigaction(SIGCHLD, &action, &saved_action);
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigset_t saved_mask;
  ::pthread_sigmask(SIG_BLOCK, &chld, &saved_mask);
  sigset_t during_wait = saved_mask;
  sigdelset(&during_wait, SIGCHLD);
  int why = -1;
  while (why < 0) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid) {
      why = 1;
      break;
    }
    timespec timeout{};
    timespec* timeout_ptr = nullptr;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) {
        why = 0;
        break;
      }
      timeout.tv_sec = static_cast<time_t>(left_s);
      timeout.tv_nsec = static_cast<long>((left_s - static_cast<double>(timeout.tv_sec)) * 1e9);
      timeout_ptr = &timeout;
    }
    pollfd cancel{cancel_fd, POLLIN, 0};
    const int ready = ::ppoll(&cancel, cancel_fd >= 0 ? 1 : 0, timeout_ptr, &during_wait);
    if (ready > 0) why = 2;
    // ready == 0: the deadline (checked at the top); EINTR: a SIGCHLD (checked at the top).
  }
  ::pthread_sigmask(SIG_SETMASK, &saved_mask, nullptr);
  ::sigaction(SIGCHLD, &saved_action, nullptr);
  return why;
}

// Returns 1 exited, 0 deadline, 2 cancel.
int wait_for_exit(pid_t pid, int pidfd, int cancel_fd, double deadline_s) {
  return pidfd >= 0 ? wait_with_pidfd(pidfd, cancel_fd, deadline_s)
                    : wait_with_sigchld(pid, cancel_fd, deadline_s);
}

// SIGTERM to the worker's process group, then SIGKILL once the grace period is over.
void terminate_group(pid_t pgid, int pidfd, double grace_s, int& signal_sent) {
  ::kill(-pgid, SIGTERM);
  signal_sent = SIGTERM;
  if (wait_for_exit(pgid, pidfd, -1, monotonic_s() + grace_s) == 0) {
    ::kill(-pgid, SIGKILL);
    signal_sent = SIGKILL;
  }
}

// This process' children, from /proc/self/task/*/children (Linux 3.5+, CONFIG_PROC_CHILDREN).
std::set<pid_t> children_of_self() {
  std::set<pid_t> children;
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) return children;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream in(std::string("/proc/self/task/") + entry->d_name + "/children");
    pid_t child = 0;
    while (in >> child) children.insert(child);
  }
  ::closedir(tasks);
  return children;
}

struct ProcessState {
  char state = 'Z';  // as in /proc/PID/stat; a process already gone reads as a zombie
  pid_t process_group = 0;
};

ProcessState process_state(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ProcessState found;
  const std::size_t close_paren = stat.rfind(')');
  if (close_paren == std::string::npos) return found;
  // After "(comm)": state ppid pgrp ...
  std::istringstream fields(stat.substr(close_paren + 1));
  pid_t parent = 0;
  fields >> found.state >> parent >> found.process_group;
  return found;
}

bool holds_file(pid_t pid, const struct stat& file) {
  const std::string fd_dir = "/proc/" + std::to_string(pid) + "/fd";
  DIR* fds = ::opendir(fd_dir.c_str());
  if (fds == nullptr) return false;
  bool holds = false;
  while (const dirent* entry = ::readdir(fds)) {
    if (entry->d_name[0] == '.') continue;
    struct stat st {};
    if (::stat((fd_dir + "/" + entry->d_name).c_str(), &st) == 0 && st.st_dev == file.st_dev &&
        st.st_ino == file.st_ino) {
      holds = true;
      break;
    }
  }
  ::closedir(fds);
  return holds;
}

// After the worker's own wait4: every process it left behind that became our child (the spawner
// is a child subreaper, so setsid and double-forked processes come to us) is killed and reaped,
// round after round, since killing one hands its own children to us.
void reap_strays(pid_t pgid, bool group_terminated, const std::set<pid_t>& before,
                 const struct stat* sink, SpawnResult& result) {
  std::set<pid_t> counted;
  for (int round = 0; round < 1000; ++round) {
    std::vector<pid_t> strays;
    for (const pid_t child : children_of_self()) {
      if (before.count(child) == 0) strays.push_back(child);
    }
    if (strays.empty()) break;
    // Look at every live stray before killing any: a killed process drops its descriptors.
    for (const pid_t stray : strays) {
      const ProcessState state = process_state(stray);
      if (state.state == 'Z' || !counted.insert(stray).second) continue;  // finished, not a stray
      // After a timeout or cancel the whole group was signalled with the worker: its members
      // are still dying, not left behind.
      if (group_terminated && state.process_group == pgid) continue;
      ++result.strays_killed;
      if (sink != nullptr && holds_file(stray, *sink)) result.stray_held_sink = true;
    }
    ::kill(-pgid, SIGKILL);
    for (const pid_t stray : strays) ::kill(stray, SIGKILL);
    for (const pid_t stray : strays) {
      while (::waitpid(stray, nullptr, 0) < 0 && errno == EINTR) {
      }
    }
  }
  ::kill(-pgid, SIGKILL);  // without a subreaper, what is left of the group at least goes
}

// What the child reports through the exec-error pipe when it cannot start.
struct ChildFailure {
  int stage;  // 0: execve, 1: sched_setaffinity
  int error;
};

[[noreturn]] void child_fail(int error_pipe, int stage) {
  const ChildFailure failure{stage, errno};
  [[maybe_unused]] const ssize_t written = ::write(error_pipe, &failure, sizeof failure);
  ::_exit(127);
}

std::string describe_cpus(const std::vector<int>& cpus) {
  std::string text;
  for (const int cpu : cpus) {
    if (!text.empty()) text += ',';
    text += std::to_string(cpu);
  }
  return text;
}

}  // namespace

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string_view dir = colon == 0 ? std::string_view(".") : dirs.substr(0, colon);
    std::string candidate = std::string(dir) + "/" + name;
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

SpawnResult spawn_and_measure(const SpawnRequest& request, int cancel_fd) {
  SpawnResult result;
  if (request.argv.empty()) {
    result.error = "empty command";
    return result;
  }
  const std::string exe = resolve_executable(request.argv.front(), result.error);
  if (exe.empty()) return result;

  UniqueFd dev_null;
  if (request.stdin_fd < 0 || request.stdout_fd < 0) {
    dev_null.reset(::open("/dev/null", O_RDWR | O_CLOEXEC));
  }
  const int in_fd = request.stdin_fd >= 0 ? request.stdin_fd : dev_null.get();
  const int out_fd = request.stdout_fd >= 0 ? request.stdout_fd : dev_null.get();
  const int err_fd = request.stderr_fd;
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (const int cpu : request.cpus) {
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(static_cast<std::size_t>(cpu), &cpus);
  }
  const bool pin = !request.cpus.empty();
  std::vector<char*> argv;
  for (const auto& arg : request.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);

  // Two close-on-exec pipes: `release` holds the child before its exec until the parent has
  // opened the counters on it; `failure` brings back why it could not start (EOF: it exec'd).
  std::array<int, 2> release{-1, -1};
  std::array<int, 2> failure{-1, -1};
  if (::pipe2(release.data(), O_CLOEXEC) != 0 || ::pipe2(failure.data(), O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    for (const int fd : {release[0], release[1], failure[0], failure[1]})
      if (fd >= 0) ::close(fd);
    return result;
  }
  UniqueFd release_read(release[0]);
  UniqueFd release_write(release[1]);
  UniqueFd failure_read(failure[0]);
  UniqueFd failure_write(failure[1]);
  const std::set<pid_t> children_before = children_of_self();

  const double start_s = monotonic_s();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    // The child, before execve: only async-signal-safe calls. Its copy of the release pipe's
    // write end must go, or it would wait for its own EOF.
    ::close(release[1]);
    ::close(failure[0]);
    ::setpgid(0, 0);  // its own group: terminal ^C goes to the driver, which ends the group
    if (pin && ::sched_setaffinity(0, sizeof cpus, &cpus) != 0) child_fail(failure[1], 1);
    ::dup2(in_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
    // The spawner ignores SIGINT; a worker must start with default dispositions and no mask.
    for (const int sig : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    char go = 0;
    while (::read(release[0], &go, 1) < 0 && errno == EINTR) {
    }
    ::execve(exe.c_str(), argv.data(), environ);
    child_fail(failure[1], 0);
  }
  ::setpgid(pid, pid);  // also from here: the group exists before anyone signals it
  release_read.reset();
  failure_write.reset();
  const CounterSet counters = CounterSet::open(request.counters, pid);
  release_write.reset();  // EOF: the child goes on to its exec

  ChildFailure failed{};
  ssize_t got = 0;
  do {
    got = ::read(failure_read.get(), &failed, sizeof failed);
  } while (got < 0 && errno == EINTR);
  if (got == static_cast<ssize_t>(sizeof failed)) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    result.error = failed.stage == 1 ? "sched_setaffinity to CPUs " + describe_cpus(request.cpus) +
                                           ": " + std::strerror(failed.error)
                                     : request.argv.front() + ": " + std::strerror(failed.error);
    return result;
  }

  UniqueFd pidfd(spawn_ops().pidfd_open(pid));
  bool cancelled = false;
  bool timed_out = false;
  int signal_sent = 0;
  const double deadline_s = request.timeout_s > 0 ? start_s + request.timeout_s : 0;
  const int why = wait_for_exit(pid, pidfd.get(), cancel_fd, deadline_s);
  if (why != 1) {
    timed_out = why == 0;
    cancelled = why == 2;
    terminate_group(pid, pidfd.get(), request.kill_grace_s, signal_sent);
  }

  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::wait4(pid, &status, 0, &result.usage);
  } while (reaped < 0 && errno == EINTR);
  result.elapsed_s = monotonic_s() - start_s;

  struct stat sink {};
  const bool sink_known = request.stdout_fd >= 0 && ::fstat(request.stdout_fd, &sink) == 0;
  reap_strays(pid, why != 1, children_before, sink_known ? &sink : nullptr, result);
  result.counters = counters.read();

  if (reaped != pid) {
    result.error = std::string("wait4: ") + std::strerror(errno);
    return result;
  }
  if (cancelled) {
    result.outcome = SpawnOutcome::kCancelled;
  } else if (timed_out) {
    result.outcome = SpawnOutcome::kTimedOut;
  } else if (WIFEXITED(status)) {
    result.outcome = SpawnOutcome::kExited;
  } else {
    result.outcome = SpawnOutcome::kSignaled;
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  if (timed_out && result.term_signal == 0) result.term_signal = signal_sent;
  return result;
}

}  // namespace iobench
