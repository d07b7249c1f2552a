#pragma once
// The one SIGINT/SIGTERM guard: gen (which polls and throws) and run (which also cancels the
// running worker) both build on it, so the flag, the saved handlers and their restoring are
// written once.
#include <csignal>

namespace iobench {

// Catches SIGINT and SIGTERM for its lifetime; the previous handlers (and hook) come back after.
// The outermost guard clears the flag as it starts; a guard within another keeps it, so a signal
// the outer one caught is not lost when an inner one (gen's, within run's) starts.
class SignalGuard {
 public:
  // Called from the handler with the signal number: async-signal-safe work only.
  using Hook = void (*)(int signal_number);

  // restart: SA_RESTART, for a writer that polls between blocks; without it a blocking wait
  // returns EINTR and notices at once.
  explicit SignalGuard(bool restart, Hook hook = nullptr);
  SignalGuard(const SignalGuard&) = delete;
  SignalGuard& operator=(const SignalGuard&) = delete;
  ~SignalGuard();

 private:
  struct sigaction saved_int_ {};
  struct sigaction saved_term_ {};
  Hook saved_hook_ = nullptr;
};

// The signal that came under the current (or last) guard, 0 if none did.
int caught_signal() noexcept;

}  // namespace iobench
