#pragma once
// The system-call seam (fmt's model): all raw reads and writes go through sys::ops(), so tests can
// inject EINTR, short reads and short writes without touching the code under test.
#include <sys/types.h>
#include <sys/uio.h>

#include <cstddef>

namespace iobench::sys {

struct Ops {
  ssize_t (*read)(int fd, void* buf, std::size_t count);
  ssize_t (*write)(int fd, const void* buf, std::size_t count);
  ssize_t (*writev)(int fd, const struct iovec* iov, int iovcnt);
};

// The operations in force; the real system calls unless a test swapped them.
Ops& ops() noexcept;

// Swaps the operations for the lifetime of the object (tests only).
class ScopedOps {
 public:
  explicit ScopedOps(const Ops& replacement) noexcept;
  ScopedOps(const ScopedOps&) = delete;
  ScopedOps& operator=(const ScopedOps&) = delete;
  ~ScopedOps();

 private:
  Ops saved_;
};

// Reads up to count bytes, retrying EINTR. Returns 0 only at end of file.
// Throws std::system_error on any other error.
std::size_t read_some(int fd, void* buf, std::size_t count);

// Reads until count bytes or end of file; returns the bytes read.
std::size_t read_full(int fd, void* buf, std::size_t count);

// Writes all count bytes, retrying EINTR and short writes. Throws std::system_error on error.
void write_all(int fd, const void* buf, std::size_t count);

// Writes every byte of iov[0..iovcnt), retrying EINTR and partial writes (the iovec array is
// advanced in place). Throws std::system_error on error.
void writev_all(int fd, struct iovec* iov, int iovcnt);

}  // namespace iobench::sys
