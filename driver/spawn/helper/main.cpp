// iobench-spawner: the process that starts, times and reaps every worker of `iobench run`
// (docs/driver.md, "The spawner"). Started by the driver as `iobench-spawner FD`, it serves the
// spawn requests that arrive on the socket FD (driver/spawn/protocol.hpp) until the driver closes
// it. It is built static, without the C++ runtime, because every worker inherits its resident
// size as the floor of its max RSS, and every fork copies its page tables.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "driver/spawn/measure.hpp"
#include "driver/spawn/protocol.hpp"

namespace {

// One record at most kMaxRequestBytes (the driver refuses larger): static, so only the pages a
// request actually fills become resident.
char g_request[iobench::spawn::wire::kMaxRequestBytes + 1];

// How long the spawner waits awake for the next request before it sleeps (receive).
constexpr double kRequestSpinS = 0.001;

// Receives one record and the descriptors that came with it (close-on-exec); its size, 0 when the
// driver closed the channel, -1 on an error.
ssize_t receive(int channel, int* fds, std::size_t& fd_count) {
  iovec iov{g_request, sizeof g_request};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * iobench::spawn::wire::kRequestFds)] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  // The next request follows a result within microseconds when runs are short.
  iobench::spawn::await_readable_awake(channel, kRequestSpinS);
  ssize_t received = 0;
  do {
    received = ::recvmsg(channel, &msg, MSG_CMSG_CLOEXEC);
  } while (received < 0 && errno == EINTR);
  fd_count = 0;
  if (received < 0) return -1;
  for (cmsghdr* header = CMSG_FIRSTHDR(&msg); header != nullptr;
       header = CMSG_NXTHDR(&msg, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof fd);
      if (fd_count < iobench::spawn::wire::kRequestFds) {
        fds[fd_count++] = fd;
      } else {
        ::close(fd);
      }
    }
  }
  return received;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: iobench-spawner FD (started by `iobench run`)\n");
    return 2;
  }
  const int channel = std::atoi(argv[1]);
  // Terminal ^C reaches the whole foreground group; the driver decides what to cancel.
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGPIPE, SIG_IGN);
  // What a worker leaves behind (a setsid or double-forked process) becomes our child when its
  // parent ends, so measure() can kill and reap it before the next run.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  ::fcntl(channel, F_SETFD, FD_CLOEXEC);  // workers must not inherit the channel
  for (;;) {
    int fds[iobench::spawn::wire::kRequestFds] = {-1, -1, -1, -1};
    std::size_t fd_count = 0;
    const ssize_t size = receive(channel, fds, fd_count);
    if (size <= 0) return 0;  // the driver is gone
    if (g_request[0] == iobench::spawn::wire::kRequestTag) {
      iobench::spawn::wire::Response response;
      iobench::spawn::MeasureRequest request;
      if (request.parse(g_request, static_cast<std::size_t>(size), fds, fd_count, response.error,
                        sizeof response.error)) {
        iobench::spawn::measure(request, channel, response);
      }
      // The worker has its copies; ours must go so the sink sees end of file.
      for (std::size_t i = 0; i < fd_count; ++i) ::close(fds[i]);
      while (::send(channel, &response, sizeof response, MSG_NOSIGNAL) < 0) {
        if (errno != EINTR) return 0;  // the driver is gone; the worker was already reaped
      }
    } else {
      for (std::size_t i = 0; i < fd_count; ++i) ::close(fds[i]);  // a stale cancel
    }
  }
}
