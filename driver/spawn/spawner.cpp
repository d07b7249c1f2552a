#include "driver/spawn/spawner.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace iobench {

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
  out.put(static_cast<std::int32_t>(result.strays_killed));
  out.put(static_cast<char>(result.stray_held_sink ? 1 : 0));
  out.put(static_cast<std::uint32_t>(result.counters.size()));
  for (const auto& reading : result.counters) {
    out.put_string(reading.name);
    out.put(static_cast<char>(reading.value ? 1 : 0));
    out.put(reading.value.value_or(0.0));
    out.put(reading.counted_fraction);
  }
  return out.data();
}

SpawnResult decode_response(Reader& in) {
  SpawnResult result;
  result.outcome = static_cast<SpawnOutcome>(in.get<std::int32_t>());
  result.exit_code = in.get<std::int32_t>();
  result.term_signal = in.get<std::int32_t>();
  result.elapsed_s = in.get<double>();
  result.usage = in.get<struct rusage>();
  result.error = in.get_string();
  result.strays_killed = in.get<std::int32_t>();
  result.stray_held_sink = in.get<char>() != 0;
  const auto counter_count = in.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < counter_count; ++i) {
    CounterReading reading;
    reading.name = in.get_string();
    const bool counted = in.get<char>() != 0;
    const auto value = in.get<double>();
    if (counted) reading.value = value;
    reading.counted_fraction = in.get<double>();
    result.counters.push_back(std::move(reading));
  }
  return result;
}

Spawner* g_spawner = nullptr;

}  // namespace

int serve_spawner(int channel) {
  // Terminal ^C reaches the whole foreground group; the driver decides what to cancel.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGPIPE, SIG_IGN);
  // What a worker leaves behind (a setsid or double-forked process) becomes our child when its
  // parent ends, so spawn_and_measure can kill and reap it before the next run.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
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
      const auto counter_count = in.get<std::uint32_t>();
      for (std::uint32_t i = 0; i < counter_count; ++i) request.counters.push_back(in.get_string());
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
  out.put(static_cast<std::uint32_t>(request.counters.size()));
  for (const auto& name : request.counters) out.put_string(name);
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
  return decode_response(in);
}

void Spawner::cancel() const noexcept {
  const char tag = kCancelTag;
  [[maybe_unused]] const ssize_t sent =
      ::send(channel_.get(), &tag, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace iobench
