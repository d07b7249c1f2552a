#include "driver/spawn/measure.hpp"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "driver/spawn/core_util.hpp"
#include "driver/spawn/counter_events.hpp"
#include "driver/spawn/pipe_drain.hpp"
#include "driver/spawn/spawn_ops.hpp"
#include "driver/spawn/strays.hpp"
#include "driver/spawn/worker_start.hpp"
#include "driver/spawn/worker_wait.hpp"

extern char** environ;

namespace iobench::spawn {
namespace {

// /dev/null for the default stdin and stdout, opened once per process.
int dev_null() {
  static int fd = -1;
  if (fd < 0) fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  return fd;
}

// How the reaped worker ended, into the response: the driver's cancel and the deadline come
// before what wait4 saw (the signal that ended a timed-out run, when it did not exit).
void set_outcome(WaitEnd end, int status, int signal_sent, wire::Response& response) {
  if (end == WaitEnd::kCancelled) {
    response.outcome = wire::Outcome::kCancelled;
  } else if (end == WaitEnd::kDeadline) {
    response.outcome = wire::Outcome::kTimedOut;
  } else if (WIFEXITED(status)) {
    response.outcome = wire::Outcome::kExited;
  } else {
    response.outcome = wire::Outcome::kSignaled;
  }
  if (WIFEXITED(status)) response.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) response.term_signal = WTERMSIG(status);
  if (end == WaitEnd::kDeadline && response.term_signal == 0) response.term_signal = signal_sent;
}

// The first two fields of /proc/PID/schedstat: the nanoseconds the task ran on a CPU, and its
// run_delay, those it was runnable but waited for one (docs/driver.md, "Disturbance"). Read once
// the worker has exited and before wait4 reaps it: a zombie keeps its figures until then. Kernels
// without CONFIG_SCHED_INFO have no such file; then run_delay_known stays 0.
void read_run_delay(pid_t pid, wire::Response& response) {
  char path[48];
  std::snprintf(path, sizeof path, "/proc/%d/schedstat", static_cast<int>(pid));
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char text[128];
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return;
  text[n] = '\0';
  char* end = nullptr;
  const unsigned long long on_cpu_ns = std::strtoull(text, &end, 10);
  if (end == text || *end != ' ') return;
  const char* delay = end + 1;
  const unsigned long long run_delay_ns = std::strtoull(delay, &end, 10);
  if (end == delay) return;
  response.on_cpu_ns = on_cpu_ns;
  response.run_delay_ns = run_delay_ns;
  response.run_delay_known = 1;
}

}  // namespace

MeasureRequest::~MeasureRequest() {
  std::free(static_cast<void*>(argv));
  std::free(static_cast<void*>(envp));
}

namespace {

bool same_name(const char* entry, const char* other) {
  const char* equals = std::strchr(other, '=');
  if (equals == nullptr) return false;
  const std::size_t length = static_cast<std::size_t>(equals - other) + 1;  // with the '='
  return std::strncmp(entry, other, length) == 0;
}

// environ without the entries `set` names, then `set`'s: the worker's environment. Null when
// out of memory.
char** environment_with(char* const* set, std::size_t set_count) {
  std::size_t inherited = 0;
  while (environ[inherited] != nullptr) ++inherited;
  auto** out = static_cast<char**>(std::calloc(inherited + set_count + 1, sizeof(char*)));
  if (out == nullptr) return nullptr;
  std::size_t used = 0;
  for (std::size_t i = 0; i < inherited; ++i) {
    bool overridden = false;
    for (std::size_t j = 0; j < set_count && !overridden; ++j)
      overridden = same_name(environ[i], set[j]);
    if (!overridden) out[used++] = environ[i];
  }
  for (std::size_t j = 0; j < set_count; ++j) out[used++] = set[j];
  return out;
}

}  // namespace

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
  const std::size_t env_count = header.env_count;
  if (env_count > size - pos) {
    std::snprintf(error, error_size, "spawner: truncated request");
    return false;
  }
  auto** env = static_cast<char**>(std::calloc(env_count + 1, sizeof(char*)));
  if (env == nullptr) {
    std::snprintf(error, error_size, "spawner: out of memory");
    return false;
  }
  for (std::size_t i = 0; i < arg_count + counter_count + env_count; ++i) {
    const void* end = pos < size ? std::memchr(data + pos, '\0', size - pos) : nullptr;
    if (end == nullptr) {
      std::free(static_cast<void*>(env));
      std::snprintf(error, error_size, "spawner: truncated request");
      return false;
    }
    // execve takes char* const*, and never writes through it.
    char* text = const_cast<char*>(data + pos);
    if (i < arg_count) {
      argv[i] = text;
    } else if (i < arg_count + counter_count) {
      counters[i - arg_count] = text;
    } else {
      env[i - arg_count - counter_count] = text;
    }
    pos = static_cast<std::size_t>(static_cast<const char*>(end) - data) + 1;
  }
  std::free(static_cast<void*>(envp));
  envp = env_count > 0 ? environment_with(env, env_count) : nullptr;
  std::free(static_cast<void*>(env));
  if (env_count > 0 && envp == nullptr) {
    std::snprintf(error, error_size, "spawner: out of memory");
    return false;
  }
  std::size_t next_fd = 0;
  int* targets[wire::kRequestFds] = {&stdin_fd, &stdout_fd, &stderr_fd, &drain_fd};
  for (std::size_t i = 0; i < wire::kRequestFds; ++i) {
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
  // The pipe's reader (this process) keeps off a pinned worker's CPUs, as the spinning drain's
  // thread does: a reader sharing its CPU would make the worker wait for its own harness.
  if (request.drain_fd >= 0) {
    pin.keep_off_worker_cpus();
  } else {
    pin.restore();
  }
  if (pid < 0) {
    for (int& fd : counter_fds) close_fd(fd);
    return;
  }

  response.pid = pid;
  PipeDrain drain(request.drain_fd);
  int pidfd = spawn_ops().pidfd_open(pid);
  const double deadline_s = request.timeout_s > 0 ? start_s + request.timeout_s : 0;
  const WaitEnd end = wait_for_exit(pid, pidfd, cancel_fd, deadline_s, &drain);
  int signal_sent = 0;
  if (end != WaitEnd::kExited)
    signal_sent = terminate_group(pid, pidfd, request.kill_grace_s, &drain);
  // The read happens inside the timed span; its own time is taken out of elapsed_s below, so the
  // figure is what it was without it.
  const double read_start_s = monotonic_s();
  read_run_delay(pid, response);
  const double read_s = monotonic_s() - read_start_s;
  // What the worker wrote last is read before the clock stops, as a reader that reads to the
  // end and then waits (hyperfine's) counts it.
  drain.read_available();

  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::wait4(pid, &status, 0, &response.usage);
  } while (reaped < 0 && errno == EINTR);
  const int wait_error = errno;
  response.elapsed_s = monotonic_s() - start_s - read_s;
  close_fd(pidfd);

  struct stat sink {};
  const bool sink_known = request.stdout_fd >= 0 && ::fstat(request.stdout_fd, &sink) == 0;
  reap_strays(pid, end != WaitEnd::kExited, children_before, sink_known ? &sink : nullptr,
              response);
  drain.read_available();  // what the strays wrote before they were killed
  drain.report(response);
  for (std::size_t i = 0; i < request.counter_count; ++i) {
    response.counters[i] = read_counter(counter_fds[i]);
    close_fd(counter_fds[i]);
  }

  if (reaped != pid) {
    set_error(response, "wait4: %s", std::strerror(wait_error));
    return;
  }
  set_outcome(end, status, signal_sent, response);
}

void await_readable_awake(int fd, double spin_s) noexcept {
  const double until_s = monotonic_s() + spin_s;
  pollfd readable{fd, POLLIN, 0};
  while (::poll(&readable, 1, 0) == 0 && monotonic_s() < until_s) ::sched_yield();
}

}  // namespace iobench::spawn
