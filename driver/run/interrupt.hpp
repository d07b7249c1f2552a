#pragma once
// Interrupts (SIGINT, SIGTERM) during `iobench run`: stop scheduling, end the running worker,
// keep every finished row, exit 130.
#include "common/signal_guard.hpp"
#include "driver/run/launcher.hpp"

namespace iobench::run {

// Installs the handlers for its lifetime: taken before a command opens or writes anything, so a
// signal from then on ends it as one during the runs does (exit 130), never by the default action
// that would leave what it had begun (docs/driver.md, "Order, failures, interrupts"). No
// SA_RESTART: a blocking wait must notice.
class InterruptGuard {
 public:
  InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  ~InterruptGuard() = default;

 private:
  SignalGuard guard_;
};

// While it lives, a signal caught by the InterruptGuard also cancels the launcher's running
// worker (and a duet partner's, `partner`).
class CancelOnInterrupt {
 public:
  explicit CancelOnInterrupt(const Launcher& launcher, const Launcher* partner = nullptr);
  CancelOnInterrupt(const CancelOnInterrupt&) = delete;
  CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;
  ~CancelOnInterrupt();
};

// True once SIGINT or SIGTERM arrived under the current (or last) guard.
bool interrupt_requested() noexcept;

}  // namespace iobench::run
