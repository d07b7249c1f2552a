#pragma once
// Interrupts (SIGINT, SIGTERM) during `iobench run`: stop scheduling, end the running worker,
// keep every finished row, exit 130.
#include "common/signal_guard.hpp"
#include "driver/run/launcher.hpp"

namespace iobench::run {

// Installs the handlers for its lifetime; a signal cancels the launcher's running worker. No
// SA_RESTART: a blocking wait must notice.
class InterruptGuard {
 public:
  // `partner`: a duet's second launcher, cancelled with the first.
  explicit InterruptGuard(const Launcher& launcher, const Launcher* partner = nullptr);
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard();

 private:
  SignalGuard guard_;
};

// True once SIGINT or SIGTERM arrived under the current (or last) guard.
bool interrupt_requested() noexcept;

}  // namespace iobench::run
