#include "driver/spawn/spawner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string_view>
#include <system_error>

namespace iobench {
namespace {

namespace bp = boost::process;

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

// glibc 2.36 declares pidfd_open without C linkage in C++; call the system call directly.
int open_pidfd(pid_t pid) {
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

// Waits until the worker has exited (pidfd readable), the deadline passes, or cancel_fd is
// readable. Returns 1 exited, 0 deadline, 2 cancel.
int wait_for_exit(int pidfd, int cancel_fd, double deadline_s) {
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

// SIGTERM to the worker's process group, then SIGKILL once the grace period is over.
void terminate_group(pid_t pgid, int pidfd, double grace_s, int& signal_sent) {
  ::kill(-pgid, SIGTERM);
  signal_sent = SIGTERM;
  if (wait_for_exit(pidfd, -1, monotonic_s() + grace_s) == 0) {
    ::kill(-pgid, SIGKILL);
    signal_sent = SIGKILL;
  }
}

}  // namespace

std::string find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
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
  for (const int cpu : request.cpus) CPU_SET(static_cast<std::size_t>(cpu), &cpus);
  const bool pin = !request.cpus.empty();

  // Runs in the forked child before execve: only async-signal-safe calls.
  auto child_setup = [&](auto& /*executor*/) {
    ::setpgid(0, 0);  // its own group: terminal ^C goes to the driver, which ends the group
    if (pin) ::sched_setaffinity(0, sizeof cpus, &cpus);
    ::dup2(in_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    if (err_fd >= 0) ::dup2(err_fd, STDERR_FILENO);
    // The spawner ignores SIGINT; a worker must start with default dispositions and no mask.
    for (const int sig : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT}) ::signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
  };
  pid_t failed_pid = -1;
  auto on_error = [&](auto& executor, const std::error_code&) { failed_pid = executor.pid; };

  const std::vector<std::string> args(request.argv.begin() + 1, request.argv.end());
  std::error_code spawn_error;
  const double start_s = monotonic_s();
  bp::child child(bp::exe = exe, bp::args = args, bp::extend::on_exec_setup = child_setup,
                  bp::extend::on_error = on_error, spawn_error);
  if (spawn_error) {
    // Boost.Process leaves a child whose execve failed unreaped; reap it here.
    if (failed_pid > 0) ::waitpid(failed_pid, nullptr, 0);
    result.error = request.argv.front() + ": " + spawn_error.message();
    return result;
  }
  const pid_t pid = child.id();
  child.detach();  // from here on Boost.Process neither waits for nor kills this pid

  UniqueFd pidfd(open_pidfd(pid));
  bool cancelled = false;
  bool timed_out = false;
  int signal_sent = 0;
  if (pidfd) {
    const double deadline_s = request.timeout_s > 0 ? start_s + request.timeout_s : 0;
    const int why = wait_for_exit(pidfd.get(), cancel_fd, deadline_s);
    if (why != 1) {
      timed_out = why == 0;
      cancelled = why == 2;
      terminate_group(pid, pidfd.get(), request.kill_grace_s, signal_sent);
    }
  }

  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::wait4(pid, &status, 0, &result.usage);
  } while (reaped < 0 && errno == EINTR);
  result.elapsed_s = monotonic_s() - start_s;
  ::kill(-pid, SIGKILL);  // no grandchild outlives its run (it could hold the sink open)

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

// --- The spawner process and its channel -------------------------------------------------------
//
// Messages are SOCK_SEQPACKET records: a request (kRequestTag, then the fields; the stdio
// descriptors travel as SCM_RIGHTS), a cancel (one byte kCancelTag), and from the spawner a
// response (kResponseTag, then the fields).

namespace {

constexpr char kRequestTag = 'R';
constexpr char kCancelTag = 'C';
constexpr char kResponseTag = 'A';
constexpr std::size_t kMaxMessage = 256 * 1024;

class Writer {
 public:
  template <typename T>
  void put(const T& value) {
    const auto* bytes = reinterpret_cast<const char*>(&value);
    data_.append(bytes, sizeof value);
  }
  void put_string(const std::string& text) {
    put(static_cast<std::uint32_t>(text.size()));
    data_.append(text);
  }
  [[nodiscard]] const std::string& data() const { return data_; }

 private:
  std::string data_;
};

class Reader {
 public:
  Reader(const char* data, std::size_t size) : data_(data), size_(size) {}
  template <typename T>
  T get() {
    T value{};
    need(sizeof value);
    std::memcpy(&value, data_ + pos_, sizeof value);
    pos_ += sizeof value;
    return value;
  }
  std::string get_string() {
    const auto length = get<std::uint32_t>();
    need(length);
    std::string text(data_ + pos_, length);
    pos_ += length;
    return text;
  }

 private:
  void need(std::size_t bytes) const {
    if (size_ - pos_ < bytes) throw std::runtime_error("spawner: truncated message");
  }
  const char* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

void send_message(int channel, const std::string& payload, const std::vector<int>& fds) {
  iovec iov{const_cast<char*>(payload.data()), payload.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 3)] = {};
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* header = CMSG_FIRSTHDR(&msg);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
  }
  while (::sendmsg(channel, &msg, MSG_NOSIGNAL) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "spawner send");
  }
}

// Receives one record; returns its size (0: the peer closed). Received descriptors are
// close-on-exec and appended to fds.
std::size_t receive_message(int channel, std::string& buffer, std::vector<UniqueFd>* fds) {
  // Size the buffer to the record (a peek with MSG_TRUNC tells it): every KiB the spawner touches
  // is inherited by each worker's max RSS.
  ssize_t size = 0;
  do {
    size = ::recv(channel, nullptr, 0, MSG_PEEK | MSG_TRUNC);
  } while (size < 0 && errno == EINTR);
  if (size < 0) throw std::system_error(errno, std::generic_category(), "spawner receive");
  buffer.resize(std::max<std::size_t>(static_cast<std::size_t>(size), 1));
  iovec iov{buffer.data(), buffer.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 3)] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  ssize_t received = 0;
  do {
    received = ::recvmsg(channel, &msg, MSG_CMSG_CLOEXEC);
  } while (received < 0 && errno == EINTR);
  if (received < 0) throw std::system_error(errno, std::generic_category(), "spawner receive");
  for (cmsghdr* header = CMSG_FIRSTHDR(&msg); header != nullptr;
       header = CMSG_NXTHDR(&msg, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
      if (fds != nullptr) {
        fds->emplace_back(fd);
      } else {
        ::close(fd);
      }
    }
  }
  buffer.resize(static_cast<std::size_t>(received));
  return buffer.size();
}

std::string encode_response(const SpawnResult& result) {
  Writer out;
  out.put(kResponseTag);
  out.put(static_cast<std::int32_t>(result.outcome));
  out.put(static_cast<std::int32_t>(result.exit_code));
  out.put(static_cast<std::int32_t>(result.term_signal));
  out.put(result.elapsed_s);
  out.put(result.usage);
  out.put_string(result.error);
  return out.data();
}

Spawner* g_spawner = nullptr;

}  // namespace

int serve_spawner(int channel) {
  // Terminal ^C reaches the whole foreground group; the driver decides what to cancel.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGPIPE, SIG_IGN);
  ::fcntl(channel, F_SETFD, FD_CLOEXEC);  // workers must not inherit the channel
  std::string buffer;
  for (;;) {
    std::vector<UniqueFd> fds;
    if (receive_message(channel, buffer, &fds) == 0) return 0;  // the driver is gone
    if (buffer.front() != kRequestTag) continue;                // a stale cancel
    SpawnResult result;
    try {
      Reader in(buffer.data() + 1, buffer.size() - 1);
      SpawnRequest request;
      request.timeout_s = in.get<double>();
      request.kill_grace_s = in.get<double>();
      const auto cpu_count = in.get<std::uint32_t>();
      for (std::uint32_t i = 0; i < cpu_count; ++i) request.cpus.push_back(in.get<std::int32_t>());
      const auto arg_count = in.get<std::uint32_t>();
      for (std::uint32_t i = 0; i < arg_count; ++i) request.argv.push_back(in.get_string());
      std::size_t next_fd = 0;
      for (int* target : {&request.stdin_fd, &request.stdout_fd, &request.stderr_fd}) {
        if (in.get<char>() != 0) {
          if (next_fd >= fds.size()) throw std::runtime_error("spawner: missing descriptor");
          *target = fds[next_fd++].get();
        }
      }
      result = spawn_and_measure(request, channel);
    } catch (const std::exception& e) {
      result = SpawnResult{};
      result.error = e.what();
    }
    fds.clear();  // the worker has its copies; ours must go so the sink sees end of file
    try {
      send_message(channel, encode_response(result), {});
    } catch (const std::exception&) {
      return 0;  // the driver is gone; the worker was already reaped
    }
  }
}

Spawner::Spawner(const std::string& executable) {
  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair");
  }
  UniqueFd driver_end(ends[0]);
  UniqueFd spawner_end(ends[1]);
  pid_ = ::fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork spawner");
  if (pid_ == 0) {
    // exec gives the spawner a fresh, small address space whatever this process holds.
    ::fcntl(spawner_end.get(), F_SETFD, 0);
    const std::string fd_text = std::to_string(spawner_end.get());
    ::execl(executable.c_str(), executable.c_str(), kSpawnerArgument, fd_text.c_str(), nullptr);
    std::fprintf(stderr, "iobench: cannot start the spawner %s: %s\n", executable.c_str(),
                 std::strerror(errno));
    ::_exit(127);
  }
  channel_ = std::move(driver_end);
}

Spawner::~Spawner() {
  channel_.reset();
  if (pid_ > 0) {
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

void Spawner::start_global() {
  if (g_spawner == nullptr)
    g_spawner = new Spawner("/proc/self/exe");  // lives until exit; the OS closes it
}

Spawner& Spawner::global() {
  start_global();
  return *g_spawner;
}

SpawnResult Spawner::run(const SpawnRequest& request) {
  Writer out;
  out.put(kRequestTag);
  out.put(request.timeout_s);
  out.put(request.kill_grace_s);
  out.put(static_cast<std::uint32_t>(request.cpus.size()));
  for (const int cpu : request.cpus) out.put(static_cast<std::int32_t>(cpu));
  out.put(static_cast<std::uint32_t>(request.argv.size()));
  for (const auto& arg : request.argv) out.put_string(arg);
  std::vector<int> fds;
  for (const int fd : {request.stdin_fd, request.stdout_fd, request.stderr_fd}) {
    out.put(static_cast<char>(fd >= 0 ? 1 : 0));
    if (fd >= 0) fds.push_back(fd);
  }
  if (out.data().size() > kMaxMessage) throw std::runtime_error("spawn request too large");
  send_message(channel_.get(), out.data(), fds);

  std::string buffer;
  if (receive_message(channel_.get(), buffer, nullptr) == 0 || buffer.front() != kResponseTag) {
    throw std::runtime_error("the spawner process ended unexpectedly");
  }
  Reader in(buffer.data() + 1, buffer.size() - 1);
  SpawnResult result;
  result.outcome = static_cast<SpawnOutcome>(in.get<std::int32_t>());
  result.exit_code = in.get<std::int32_t>();
  result.term_signal = in.get<std::int32_t>();
  result.elapsed_s = in.get<double>();
  result.usage = in.get<struct rusage>();
  result.error = in.get_string();
  return result;
}

void Spawner::cancel() const noexcept {
  const char tag = kCancelTag;
  [[maybe_unused]] const ssize_t sent =
      ::send(channel_.get(), &tag, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace iobench
