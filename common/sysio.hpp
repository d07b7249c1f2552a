#pragma once
// The system-call seam (fmt's model): the read(2), write(2) and writev(2) calls that move data go
// through sys::ops(), so tests can inject EINTR, short reads and short writes without touching the
// code under test; so does the open(2) of a run file, for reading and for writing, and of every
// file read whole, so that a test can count who opens what (a run's file is written once and not
// read again: docs/architecture.md, "Seams for tests"). That is the worker's readers and writers,
// and the driver's inputs (page-cache warming, reference outputs, line counts), sinks (the pipe
// drain, hashing), generated files, and result files, written and read back, and every file read
// whole (common/read_file.hpp). Not through it: reads and writes a library makes (stdio, iostreams,
// io_uring, mmap), pread(2) of a run's captured stderr, an eventfd's one-word wake-up, the worker's
// own best-effort error line, and the spawner's core, which is libc only (docs/architecture.md).
#include <sys/types.h>
#include <sys/uio.h>

#include <cstddef>

namespace iobench::sys {

// open(2) with its mode always given (open's own signature is variadic).
int open_file(const char* path, int flags, mode_t mode);

struct Ops {
  ssize_t (*read)(int fd, void* buf, std::size_t count);
  ssize_t (*write)(int fd, const void* buf, std::size_t count);
  ssize_t (*writev)(int fd, const struct iovec* iov, int iovcnt);
  int (*open)(const char* path, int flags, mode_t mode) = &open_file;
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
