#include "driver/spawn/measure.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "driver/spawn/counter_events.hpp"
#include "driver/spawn/spawn_ops.hpp"
#include "driver/spawn/strays.hpp"

extern char** environ;

namespace iobench {
namespace {

double monotonic_s() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

__attribute__((format(printf, 2, 3))) void set_error(wire::Response& response, const char* format,
                                                     ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(response.error, sizeof response.error, format, args);
  va_end(args);
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// The spawner serves one matrix: PATH lookups are cached so a run costs no PATH walk.
struct Resolved {
  char* name;
  char* path;
};
Resolved g_resolved[32];
std::size_t g_resolved_count = 0;

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

// /dev/null for the default stdin and stdout, opened once per process.
int dev_null() {
  static int fd = -1;
  if (fd < 0) fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  return fd;
}

// Waits with a pidfd: poll until it is readable (exited), the deadline passes or cancel_fd is
// readable.
int wait_with_pidfd(int pidfd, int cancel_fd, double deadline_s) {
  for (;;) {
    pollfd fds[2] = {{pidfd, POLLIN, 0}, {cancel_fd, POLLIN, 0}};
    int timeout_ms = -1;
    if (deadline_s > 0) {
      const double left_s = deadline_s - monotonic_s();
      if (left_s <= 0) return 0;
      timeout_ms = static_cast<int>(left_s * 1000) + 1;
    }
    const int ready = ::poll(fds, cancel_fd >= 0 ? 2 : 1, timeout_ms);
    if (ready < 0 && errno != EINTR) return 1;  // cannot wait: reap (wait4 blocks) rather than spin
    if (ready <= 0) continue;
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

// Pins this thread to the request's CPUs for the spawn (the child inherits the mask at the fork)
// and puts the old mask back afterwards. A pin the kernel refuses is the run's error.
class ScopedPin {
 public:
  ScopedPin(const MeasureRequest& request, wire::Response& response) {
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
    pinned_ = true;
  }
  ScopedPin(const ScopedPin&) = delete;
  ScopedPin& operator=(const ScopedPin&) = delete;
  ~ScopedPin() { restore(); }
  void restore() {
    if (pinned_) ::sched_setaffinity(0, sizeof saved_, &saved_);
    pinned_ = false;
  }
  [[nodiscard]] bool failed() const { return failed_; }

 private:
  cpu_set_t saved_{};
  bool pinned_ = false;
  bool failed_ = false;
};

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

// Without counters: vfork, so no page table is copied and the spawner waits only until the
// exec. Not posix_spawn: glibc's queries and resets all 64 signal dispositions in the child (about
// 120 system calls a run) where this one knows its own: the spawner has no handler installed
// while it spawns (SIGCHLD's exists only during the fallback wait), so resetting the ignored
// ones is enough. The child shares our memory and stack: it only makes system calls (through
// prepare_child, whose frame lies below ours and is gone by the exec), and writes
// why its exec failed into `exec_error`. Returns the pid, or -1.
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
    ::execve(path, request.argv, environ);
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

// What the forked child reports through the failure pipe when its exec fails.
[[noreturn]] void child_fail(int failure_pipe) {
  const int error = errno;
  [[maybe_unused]] const ssize_t written = ::write(failure_pipe, &error, sizeof error);
  ::_exit(127);
}

// With counters: fork, and hold the child before its exec on a pipe until the counters are
// open on it (they start at the exec). Returns the pid, or -1; the counters' descriptors go to
// counter_fds.
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
    ::execve(path, request.argv, environ);
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

}  // namespace

MeasureRequest::~MeasureRequest() {
  std::free(static_cast<void*>(argv));
}

bool MeasureRequest::parse(const char* data, std::size_t size, const int* fds, std::size_t fd_count,
                           char* error, std::size_t error_size) noexcept {
  wire::RequestHeader header;
  if (size < sizeof header) {
    std::snprintf(error, error_size, "spawner: truncated request");
    return false;
  }
  std::memcpy(&header, data, sizeof header);
  std::size_t pos = sizeof header;
  if (header.tag != wire::kRequestTag || header.counter_count > wire::kMaxCounters ||
      header.cpu_count > (size - pos) / sizeof(std::int32_t)) {
    std::snprintf(error, error_size, "spawner: malformed request");
    return false;
  }
  cpus = data + pos;
  cpu_count = header.cpu_count;
  pos += cpu_count * sizeof(std::int32_t);
  if (header.arg_count > size - pos) {  // each argument takes at least its NUL
    std::snprintf(error, error_size, "spawner: truncated request");
    return false;
  }
  std::free(static_cast<void*>(argv));
  argv = static_cast<char**>(std::calloc(header.arg_count + 1, sizeof(char*)));
  if (argv == nullptr) {
    std::snprintf(error, error_size, "spawner: out of memory");
    return false;
  }
  arg_count = header.arg_count;
  counter_count = header.counter_count;
  for (std::size_t i = 0; i < arg_count + counter_count; ++i) {
    const void* end = pos < size ? std::memchr(data + pos, '\0', size - pos) : nullptr;
    if (end == nullptr) {
      std::snprintf(error, error_size, "spawner: truncated request");
      return false;
    }
    // execve takes char* const*, and never writes through it.
    char* text = const_cast<char*>(data + pos);
    if (i < arg_count) {
      argv[i] = text;
    } else {
      counters[i - arg_count] = text;
    }
    pos = static_cast<std::size_t>(static_cast<const char*>(end) - data) + 1;
  }
  std::size_t next_fd = 0;
  int* targets[3] = {&stdin_fd, &stdout_fd, &stderr_fd};
  for (std::size_t i = 0; i < 3; ++i) {
    if (header.has_fd[i] == 0) continue;
    if (next_fd >= fd_count) {
      std::snprintf(error, error_size, "spawner: missing descriptor");
      return false;
    }
    *targets[i] = fds[next_fd++];
  }
  timeout_s = header.timeout_s;
  kill_grace_s = header.kill_grace_s;
  return true;
}

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

void measure(const MeasureRequest& request, int cancel_fd, wire::Response& response) noexcept {
  response.counter_count = static_cast<std::uint32_t>(request.counter_count);
  if (request.arg_count == 0) {
    set_error(response, "empty command");
    return;
  }
  char path[PATH_MAX];
  if (!resolve_executable(request.argv[0], path, response)) return;
  const int in_fd = request.stdin_fd >= 0 ? request.stdin_fd : dev_null();
  const int out_fd = request.stdout_fd >= 0 ? request.stdout_fd : dev_null();
  PidList children_before;
  children_of_self(children_before);
  int counter_fds[wire::kMaxCounters];
  for (int& fd : counter_fds) fd = -1;

  ScopedPin pin(request, response);
  if (pin.failed()) return;
  const double start_s = monotonic_s();
  const pid_t pid = request.counter_count > 0
                        ? spawn_held(request, path, in_fd, out_fd, counter_fds, response)
                        : spawn_shared(request, path, in_fd, out_fd, response);
  pin.restore();
  if (pid < 0) {
    for (int& fd : counter_fds) close_fd(fd);
    return;
  }

  int pidfd = spawn_ops().pidfd_open(pid);
  bool cancelled = false;
  bool timed_out = false;
  int signal_sent = 0;
  const double deadline_s = request.timeout_s > 0 ? start_s + request.timeout_s : 0;
  const int why = wait_for_exit(pid, pidfd, cancel_fd, deadline_s);
  if (why != 1) {
    timed_out = why == 0;
    cancelled = why == 2;
    terminate_group(pid, pidfd, request.kill_grace_s, signal_sent);
  }

  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::wait4(pid, &status, 0, &response.usage);
  } while (reaped < 0 && errno == EINTR);
  const int wait_error = errno;
  response.elapsed_s = monotonic_s() - start_s;
  close_fd(pidfd);

  struct stat sink {};
  const bool sink_known = request.stdout_fd >= 0 && ::fstat(request.stdout_fd, &sink) == 0;
  reap_strays(pid, why != 1, children_before, sink_known ? &sink : nullptr, response);
  for (std::size_t i = 0; i < request.counter_count; ++i) {
    response.counters[i] = read_counter(counter_fds[i]);
    close_fd(counter_fds[i]);
  }

  if (reaped != pid) {
    set_error(response, "wait4: %s", std::strerror(wait_error));
    return;
  }
  if (cancelled) {
    response.outcome = wire::Outcome::kCancelled;
  } else if (timed_out) {
    response.outcome = wire::Outcome::kTimedOut;
  } else if (WIFEXITED(status)) {
    response.outcome = wire::Outcome::kExited;
  } else {
    response.outcome = wire::Outcome::kSignaled;
  }
  if (WIFEXITED(status)) response.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) response.term_signal = WTERMSIG(status);
  if (timed_out && response.term_signal == 0) response.term_signal = signal_sent;
}

void await_readable_awake(int fd, double spin_s) noexcept {
  const double until_s = monotonic_s() + spin_s;
  pollfd readable{fd, POLLIN, 0};
  while (::poll(&readable, 1, 0) == 0 && monotonic_s() < until_s) ::sched_yield();
}

}  // namespace iobench
