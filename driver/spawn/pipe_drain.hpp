#pragma once
// The pipe sink's reader in the spawner (config `drain: block`, the default; docs/driver.md, "What
// the pipe sink costs"): the process that waits for the worker reads its output between waits, as
// hyperfine's reader does, counting and hashing (XXH3-64) what arrives. It sleeps whenever the
// pipe is empty, so it takes no CPU of its own and the figure does not move when a load takes
// one. Part of the spawner's libc-only core (protocol.hpp says why).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>

#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

class PipeDrain {
 public:
  // fd: a pipe's read end, made non-blocking here; -1 for none (every call is then a no-op).
  explicit PipeDrain(int fd) noexcept;
  PipeDrain(const PipeDrain&) = delete;
  PipeDrain& operator=(const PipeDrain&) = delete;

  // The descriptor to poll while the worker runs; -1 when there is none, it ended or failed.
  [[nodiscard]] int fd() const noexcept { return ended_ || error_ != 0 ? -1 : fd_; }
  // Reads what the pipe holds now, until it would block or ends.
  void read_available() noexcept;
  // The count and hash so far, into the response.
  void report(wire::Response& response) const noexcept;

 private:
  int fd_;
  bool ended_ = false;
  int error_ = 0;  // errno of a failed read; the output is then incomplete
  std::uint64_t bytes_ = 0;
  XXH3_state_t state_{};
};

}  // namespace iobench::spawn
