#include "common/sysio.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace iobench::sys {
namespace {

Ops g_ops{&::read, &::write, &::writev, &open_file};

[[noreturn]] void throw_errno(const char* what) {
  throw std::system_error(errno, std::generic_category(), what);
}

}  // namespace

int open_file(const char* path, int flags, mode_t mode) {
  return ::open(path, flags, mode);
}

Ops& ops() noexcept {
  return g_ops;
}

ScopedOps::ScopedOps(const Ops& replacement) noexcept : saved_(g_ops) {
  g_ops = replacement;
}
ScopedOps::~ScopedOps() {
  g_ops = saved_;
}

std::size_t read_some(int fd, void* buf, std::size_t count) {
  for (;;) {
    const ssize_t n = g_ops.read(fd, buf, count);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw_errno("read");
  }
}

std::size_t read_full(int fd, void* buf, std::size_t count) {
  auto* out = static_cast<char*>(buf);
  std::size_t total = 0;
  while (total < count) {
    const std::size_t n = read_some(fd, out + total, count - total);
    if (n == 0) break;
    total += n;
  }
  return total;
}

void write_all(int fd, const void* buf, std::size_t count) {
  const auto* in = static_cast<const char*>(buf);
  while (count > 0) {
    const ssize_t n = g_ops.write(fd, in, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("write");
    }
    in += n;
    count -= static_cast<std::size_t>(n);
  }
}

void writev_all(int fd, struct iovec* iov, int iovcnt) {
  while (iovcnt > 0) {
    const ssize_t n = g_ops.writev(fd, iov, iovcnt);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_errno("writev");
    }
    auto written = static_cast<std::size_t>(n);
    // Skip the iovecs written in full, then trim the first partial one.
    while (iovcnt > 0 && written >= iov->iov_len) {
      written -= iov->iov_len;
      ++iov;
      --iovcnt;
    }
    if (iovcnt > 0) {
      iov->iov_base = static_cast<char*>(iov->iov_base) + written;
      iov->iov_len -= written;
    }
  }
}

}  // namespace iobench::sys
