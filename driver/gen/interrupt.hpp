#pragma once
// Ctrl-C (SIGINT) or SIGTERM while gen writes: the writer stops at its next block and throws, so
// the output's temporary file or folder is removed as on any failure. Killed outright, gen left
// 100-150 MiB of hidden `.NAME.tmp.*` files beside the output.
#include <csignal>

namespace iobench::gen::detail {

// Catches SIGINT and SIGTERM for its lifetime (the previous handlers come back after).
class InterruptGuard {
 public:
  InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard();

 private:
  struct sigaction saved_int_ {};
  struct sigaction saved_term_ {};
};

// Throws iobench::Error ("interrupted", exit 130) once a signal came under the guard.
void throw_if_interrupted();

}  // namespace iobench::gen::detail
