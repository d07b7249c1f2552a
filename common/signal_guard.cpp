#include "common/signal_guard.hpp"

namespace iobench {
namespace {

volatile std::sig_atomic_t g_caught_signal = 0;
SignalGuard::Hook g_hook = nullptr;
int g_depth = 0;  // guards alive

extern "C" void on_signal(int signal_number) {
  g_caught_signal = signal_number;
  if (g_hook != nullptr) g_hook(signal_number);
}

}  // namespace

SignalGuard::SignalGuard(bool restart, Hook hook) : saved_hook_(g_hook) {
  if (g_depth++ == 0) g_caught_signal = 0;
  g_hook = hook;
  struct sigaction action {};
  action.sa_handler = &on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = restart ? SA_RESTART : 0;
  ::sigaction(SIGINT, &action, &saved_int_);
  ::sigaction(SIGTERM, &action, &saved_term_);
}

SignalGuard::~SignalGuard() {
  ::sigaction(SIGINT, &saved_int_, nullptr);
  ::sigaction(SIGTERM, &saved_term_, nullptr);
  g_hook = saved_hook_;
  --g_depth;
}

int caught_signal() noexcept {
  return g_caught_signal;
}

}  // namespace iobench
