#include "driver/spawn/spawner.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "driver/spawn/measure.hpp"
#include "driver/spawn/protocol.hpp"
#include "driver/spawn/worker_start.hpp"

namespace iobench::spawn {
namespace {

// The request record (protocol.hpp) and the descriptors that travel with it.
std::string encode_request(const SpawnRequest& request, std::vector<int>& fds) {
  if (request.counters.size() > wire::kMaxCounters)
    throw std::runtime_error("spawn request: too many counters");
  wire::RequestHeader header;
  header.cpu_count = static_cast<std::uint32_t>(request.cpus.size());
  header.arg_count = static_cast<std::uint32_t>(request.argv.size());
  header.counter_count = static_cast<std::uint32_t>(request.counters.size());
  header.env_count = static_cast<std::uint32_t>(request.env.size());
  header.timeout_s = request.timeout_s;
  header.kill_grace_s = request.kill_grace_s;
  const std::array<int, wire::kRequestFds> passed{request.stdin_fd, request.stdout_fd,
                                                  request.stderr_fd, request.drain_fd};
  for (std::size_t i = 0; i < passed.size(); ++i) {
    header.has_fd[i] = passed[i] >= 0 ? 1 : 0;
    if (passed[i] >= 0) fds.push_back(passed[i]);
  }
  std::string record(reinterpret_cast<const char*>(&header), sizeof header);
  for (const int cpu : request.cpus) {
    const auto value = static_cast<std::int32_t>(cpu);
    record.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  for (const auto* texts : {&request.argv, &request.counters, &request.env}) {
    for (const auto& text : *texts) {
      if (text.find('\0') != std::string::npos)
        throw std::runtime_error("spawn request: an argument contains a NUL byte");
      if (texts == &request.env && text.find('=') == std::string::npos)
        throw std::runtime_error("spawn request: an environment entry without '='");
      record.append(text.c_str(), text.size() + 1);
    }
  }
  if (record.size() > wire::kMaxRequestBytes) throw std::runtime_error("spawn request too large");
  return record;
}

SpawnResult to_result(const wire::Response& response, const std::vector<std::string>& counters) {
  SpawnResult result;
  result.outcome = static_cast<SpawnOutcome>(response.outcome);
  result.exit_code = response.exit_code;
  result.term_signal = response.term_signal;
  result.elapsed_s = response.elapsed_s;
  result.usage = response.usage;
  result.pid = response.pid;
  if (response.run_delay_known != 0) {
    result.own_wait_cpu_s = static_cast<double>(response.run_delay_ns) * 1e-9;
    result.own_on_cpu_s = static_cast<double>(response.on_cpu_ns) * 1e-9;
  }
  result.error.assign(response.error, strnlen(response.error, sizeof response.error));
  result.strays_killed = response.strays_killed;
  result.stray_held_sink = response.stray_held_sink != 0;
  if (response.drained != 0) {
    result.drained =
        DrainedOutput{response.drained_bytes, response.drained_hash, response.drain_errno};
  }
  for (std::size_t i = 0; i < counters.size() && i < response.counter_count; ++i) {
    CounterReading reading{counters[i], std::nullopt, response.counters[i].counted_fraction};
    if (response.counters[i].counted != 0) reading.value = response.counters[i].value;
    result.counters.push_back(std::move(reading));
  }
  return result;
}

static_assert(static_cast<int>(SpawnOutcome::kSpawnFailed) ==
                  static_cast<int>(wire::Outcome::kSpawnFailed),
              "SpawnOutcome and wire::Outcome must list the same outcomes in the same order");

Spawner* g_spawner = nullptr;

}  // namespace

std::string find_in_path(const std::string& name) {
  char path[PATH_MAX];
  return spawn::find_in_path(name.c_str(), path, sizeof path) ? std::string(path) : std::string();
}

SpawnResult spawn_and_measure(const SpawnRequest& request, int cancel_fd) {
  std::vector<int> fds;
  const std::string record = encode_request(request, fds);
  MeasureRequest parsed;
  wire::Response response;
  if (parsed.parse(record.data(), record.size(), fds.data(), fds.size(), response.error,
                   sizeof response.error)) {
    measure(parsed, cancel_fd, response);
  }
  return to_result(response, request.counters);
}

std::string spawner_beside_self() {
  std::array<char, PATH_MAX> self{};
  const ssize_t length = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (length < 0) throw std::system_error(errno, std::generic_category(), "/proc/self/exe");
  std::string path(self.data(), static_cast<std::size_t>(length));
  return path.substr(0, path.rfind('/') + 1) + "iobench-spawner";
}

Spawner::Spawner(const std::string& executable) {
  if (::access(executable.c_str(), X_OK) != 0) {
    throw std::runtime_error(executable + ": the spawner is missing or not executable (" +
                             std::strerror(errno) + "); it is built and installed beside iobench");
  }
  std::array<int, 2> ends{};
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    throw std::system_error(errno, std::generic_category(), "socketpair");
  }
  UniqueFd driver_end(ends[0]);
  UniqueFd spawner_end(ends[1]);
  const std::string fd_text = std::to_string(spawner_end.get());
  pid_ = ::fork();
  if (pid_ < 0) throw std::system_error(errno, std::generic_category(), "fork spawner");
  if (pid_ == 0) {
    // exec gives the spawner its own small address space whatever this process holds.
    ::fcntl(spawner_end.get(), F_SETFD, 0);
    ::execl(executable.c_str(), executable.c_str(), fd_text.c_str(), nullptr);
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
  if (g_spawner != nullptr) return;
  g_spawner = new Spawner(spawner_beside_self());
  // Reaped at exit, so the workers' CPU time reaches this process's children's figures: `time
  // iobench run …` (and bench-noise's machine time) counts them. Closing the channel also ends
  // a worker still running (the spawner's wait sees the hang-up as a cancel).
  std::atexit([] {
    delete g_spawner;
    g_spawner = nullptr;
  });
}

Spawner& Spawner::global() {
  start_global();
  return *g_spawner;
}

SpawnResult Spawner::run(const SpawnRequest& request) {
  std::vector<int> fds;
  const std::string record = encode_request(request, fds);
  iovec iov{const_cast<char*>(record.data()), record.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * wire::kRequestFds)] = {};
  if (!fds.empty()) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* header = CMSG_FIRSTHDR(&msg);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(header), fds.data(), sizeof(int) * fds.size());
  }
  while (::sendmsg(channel_.get(), &msg, MSG_NOSIGNAL) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "spawner send");
  }
  const std::uint64_t key = ResponseWait::key_of(request.argv);
  if (response_wait_.awake(key)) await_readable_awake(channel_.get(), kResponseSpinS);
  wire::Response response;
  ssize_t received = 0;
  do {
    received = ::recv(channel_.get(), &response, sizeof response, 0);
  } while (received < 0 && errno == EINTR);
  if (received != static_cast<ssize_t>(sizeof response) || response.tag != wire::kResponseTag) {
    throw std::runtime_error("the spawner process ended unexpectedly");
  }
  SpawnResult result = to_result(response, request.counters);
  response_wait_.ran(key, result.elapsed_s);
  return result;
}

void Spawner::cancel() const noexcept {
  const char tag = wire::kCancelTag;
  [[maybe_unused]] const ssize_t sent =
      ::send(channel_.get(), &tag, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace iobench::spawn
