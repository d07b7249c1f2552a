#pragma once
// Ctrl-C (SIGINT) or SIGTERM while gen writes: the writer stops at its next block and throws, so
// the output's temporary file or folder is removed as on any failure. Killed outright, gen left
// 100-150 MiB of hidden `.NAME.tmp.*` files beside the output.
#include "common/signal_guard.hpp"

namespace iobench::gen::detail {

// Catches SIGINT and SIGTERM for its lifetime, with SA_RESTART: the writer polls between blocks,
// so a write(2) may finish its block.
class InterruptGuard {
 public:
  InterruptGuard() : guard_(/*restart=*/true) {}

 private:
  SignalGuard guard_;
};

// Throws iobench::Error ("interrupted", exit 130) once a signal came under the guard.
void throw_if_interrupted();

}  // namespace iobench::gen::detail
