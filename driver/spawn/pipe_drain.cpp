#include "driver/spawn/pipe_drain.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace iobench::spawn {
namespace {

// One default pipe's worth a read. Static, and small: the spawner's resident size is the floor of
// every worker's max RSS (spawner.hpp), so its pages must stay few.
constexpr std::size_t kReadBytes = 64 * 1024;
char g_buffer[kReadBytes];

}  // namespace

PipeDrain::PipeDrain(int fd) noexcept : fd_(fd) {
  XXH3_64bits_reset(&state_);
  if (fd_ < 0) return;
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) error_ = errno;
}

void PipeDrain::read_available() noexcept {
  while (fd_ >= 0 && !ended_ && error_ == 0) {
    const ssize_t n = ::read(fd_, g_buffer, sizeof g_buffer);
    if (n > 0) {
      XXH3_64bits_update(&state_, g_buffer, static_cast<std::size_t>(n));
      bytes_ += static_cast<std::uint64_t>(n);
    } else if (n == 0) {
      ended_ = true;
    } else if (errno == EAGAIN) {
      return;
    } else if (errno != EINTR) {
      error_ = errno;
    }
  }
}

void PipeDrain::report(wire::Response& response) const noexcept {
  if (fd_ < 0) return;
  response.drained = 1;
  response.drained_bytes = bytes_;
  response.drained_hash = XXH3_64bits_digest(&state_);
  response.drain_errno = error_;
}

}  // namespace iobench::spawn
