#include "driver/spawn/worker_start.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "driver/spawn/core_util.hpp"
#include "driver/spawn/counter_events.hpp"

extern char** environ;

namespace iobench::spawn {
namespace {

// The spawner serves one matrix: PATH lookups are cached so a run costs no PATH walk.
struct Resolved {
  char* name;
  char* path;
};
Resolved g_resolved[32];
std::size_t g_resolved_count = 0;

void describe_cpus(const MeasureRequest& request, char* text, std::size_t size) {
  std::size_t used = 0;
  text[0] = '\0';
  for (std::size_t i = 0; i < request.cpu_count && used + 1 < size; ++i) {
    std::int32_t cpu = 0;
    std::memcpy(&cpu, request.cpus + i * sizeof cpu, sizeof cpu);
    const int wrote =
        std::snprintf(text + used, size - used, "%s%d", i > 0 ? "," : "", static_cast<int>(cpu));
    if (wrote < 0) break;
    used += static_cast<std::size_t>(wrote);
  }
}

// The signals a worker must find at their default (the spawner ignores SIGINT and SIGPIPE).
constexpr int kDefaultSignals[] = {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT};

// In the child before its exec, vforked or forked: only async-signal-safe calls.
void prepare_child(const MeasureRequest& request, int in_fd, int out_fd) {
  ::setpgid(0, 0);  // its own group: terminal ^C goes to the driver, which ends the group
  ::dup2(in_fd, STDIN_FILENO);
  ::dup2(out_fd, STDOUT_FILENO);
  if (request.stderr_fd >= 0) ::dup2(request.stderr_fd, STDERR_FILENO);
  for (const int sig : kDefaultSignals) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// What the forked child reports through the failure pipe when its exec fails.
[[noreturn]] void child_fail(int failure_pipe) {
  const int error = errno;
  [[maybe_unused]] const ssize_t written = ::write(failure_pipe, &error, sizeof error);
  ::_exit(127);
}

}  // namespace

bool find_in_path(const char* name, char* out, std::size_t out_size) noexcept {
  const char* path = std::getenv("PATH");
  const char* dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  for (;;) {
    const char* colon = std::strchr(dirs, ':');
    const std::size_t length =
        colon != nullptr ? static_cast<std::size_t>(colon - dirs) : std::strlen(dirs);
    const int wrote =
        length == 0 ? std::snprintf(out, out_size, "./%s", name)
                    : std::snprintf(out, out_size, "%.*s/%s", static_cast<int>(length), dirs, name);
    if (wrote > 0 && static_cast<std::size_t>(wrote) < out_size && ::access(out, X_OK) == 0)
      return true;
    if (colon == nullptr) break;
    dirs = colon + 1;
  }
  out[0] = '\0';
  return false;
}

bool resolve_executable(const char* name, char* path, wire::Response& response) {
  if (std::strchr(name, '/') != nullptr) {
    if (::access(name, X_OK) != 0) {
      set_error(response, "%s: %s", name, std::strerror(errno));
      return false;
    }
    std::snprintf(path, PATH_MAX, "%s", name);
    return true;
  }
  for (std::size_t i = 0; i < g_resolved_count; ++i) {
    if (std::strcmp(g_resolved[i].name, name) == 0) {
      std::snprintf(path, PATH_MAX, "%s", g_resolved[i].path);
      return true;
    }
  }
  if (!find_in_path(name, path, PATH_MAX)) {
    set_error(response, "%s: command not found in PATH", name);
    return false;
  }
  if (g_resolved_count < sizeof g_resolved / sizeof g_resolved[0]) {
    g_resolved[g_resolved_count++] = {::strdup(name), ::strdup(path)};
  }
  return true;
}

ScopedPin::ScopedPin(const MeasureRequest& request, wire::Response& response) {
  if (request.cpu_count == 0) return;
  cpu_set_t wanted;
  CPU_ZERO(&wanted);
  for (std::size_t i = 0; i < request.cpu_count; ++i) {
    std::int32_t cpu = 0;
    std::memcpy(&cpu, request.cpus + i * sizeof cpu, sizeof cpu);
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(static_cast<std::size_t>(cpu), &wanted);
  }
  if (::sched_getaffinity(0, sizeof saved_, &saved_) != 0 ||
      ::sched_setaffinity(0, sizeof wanted, &wanted) != 0) {
    const int error = errno;
    char cpus[256];
    describe_cpus(request, cpus, sizeof cpus);
    set_error(response, "sched_setaffinity to CPUs %s: %s", cpus, std::strerror(error));
    failed_ = true;
    return;
  }
  wanted_ = wanted;
  pinned_ = true;
}

void ScopedPin::keep_off_worker_cpus() {
  if (!pinned_) return;
  cpu_set_t others;
  CPU_ZERO(&others);
  for (std::size_t cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &saved_) && !CPU_ISSET(cpu, &wanted_)) CPU_SET(cpu, &others);
  }
  if (CPU_COUNT(&others) == 0 || ::sched_setaffinity(0, sizeof others, &others) != 0) restore();
}

void ScopedPin::restore() {
  if (pinned_) ::sched_setaffinity(0, sizeof saved_, &saved_);
  pinned_ = false;
}

// Not posix_spawn: glibc's queries and resets all 64 signal dispositions in the child (about
// 120 system calls a run) where this one knows its own: the spawner has no handler installed
// while it spawns (SIGCHLD's exists only during the fallback wait), so resetting the ignored
// ones is enough. The child shares our memory and stack: it only makes system calls (through
// prepare_child, whose frame lies below ours and is gone by the exec), and writes why its exec
// failed into `exec_error`.
[[gnu::noinline]] pid_t spawn_shared(const MeasureRequest& request, const char* path, int in_fd,
                                     int out_fd, wire::Response& response) {
  sigset_t all;
  sigfillset(&all);
  sigset_t saved;
  // Blocked until the child's exec: no signal handler may run on the stack the two share.
  ::pthread_sigmask(SIG_BLOCK, &all, &saved);
  volatile int exec_error = 0;
  const pid_t pid = ::vfork();
  if (pid == 0) {
    prepare_child(request, in_fd, out_fd);
    ::execve(path, request.argv, request.envp != nullptr ? request.envp : environ);
    exec_error = errno;
    ::_exit(127);
  }
  const int vfork_error = errno;
  ::pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  if (pid < 0) {
    set_error(response, "vfork: %s", std::strerror(vfork_error));
    return -1;
  }
  if (exec_error != 0) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    set_error(response, "%s: %s", request.argv[0], std::strerror(exec_error));
    return -1;
  }
  return pid;
}

pid_t spawn_held(const MeasureRequest& request, const char* path, int in_fd, int out_fd,
                 int* counter_fds, wire::Response& response) {
  // Two close-on-exec pipes: `release` holds the child before its exec until the parent has
  // opened the counters on it; `failure` brings back why it could not start (EOF: it exec'd).
  int release[2] = {-1, -1};
  int failure[2] = {-1, -1};
  if (::pipe2(release, O_CLOEXEC) != 0 || ::pipe2(failure, O_CLOEXEC) != 0) {
    set_error(response, "pipe: %s", std::strerror(errno));
    for (int& fd : release) close_fd(fd);
    return -1;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    set_error(response, "fork: %s", std::strerror(errno));
    for (int& fd : release) close_fd(fd);
    for (int& fd : failure) close_fd(fd);
    return -1;
  }
  if (pid == 0) {
    // The child, before execve: only async-signal-safe calls. Its copy of the release pipe's
    // write end must go, or it would wait for its own EOF.
    ::close(release[1]);
    ::close(failure[0]);
    prepare_child(request, in_fd, out_fd);
    char go = 0;
    while (::read(release[0], &go, 1) < 0 && errno == EINTR) {
    }
    ::execve(path, request.argv, request.envp != nullptr ? request.envp : environ);
    child_fail(failure[1]);
  }
  ::setpgid(pid, pid);  // also from here: the group exists before anyone signals it
  close_fd(release[0]);
  close_fd(failure[1]);
  for (std::size_t i = 0; i < request.counter_count; ++i) {
    int error = 0;
    counter_fds[i] = open_counter(request.counters[i], pid, &error);
  }
  close_fd(release[1]);  // EOF: the child goes on to its exec
  int failed = 0;
  ssize_t got = 0;
  do {
    got = ::read(failure[0], &failed, sizeof failed);
  } while (got < 0 && errno == EINTR);
  close_fd(failure[0]);
  if (got == static_cast<ssize_t>(sizeof failed)) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    set_error(response, "%s: %s", request.argv[0], std::strerror(failed));
    return -1;
  }
  return pid;
}

}  // namespace iobench::spawn
