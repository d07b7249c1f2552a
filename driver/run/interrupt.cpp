#include "driver/run/interrupt.hpp"

#include <csignal>

namespace iobench::run {
namespace {

volatile std::sig_atomic_t g_interrupt_signal = 0;
const Launcher* g_active_launcher = nullptr;
struct sigaction g_saved_int {};
struct sigaction g_saved_term {};

extern "C" void on_interrupt(int signal_number) {
  g_interrupt_signal = signal_number;
  if (g_active_launcher != nullptr) g_active_launcher->cancel();
}

}  // namespace

InterruptGuard::InterruptGuard(const Launcher& launcher) {
  g_interrupt_signal = 0;
  g_active_launcher = &launcher;
  struct sigaction action {};
  action.sa_handler = &on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking wait must notice
  ::sigaction(SIGINT, &action, &g_saved_int);
  ::sigaction(SIGTERM, &action, &g_saved_term);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &g_saved_int, nullptr);
  ::sigaction(SIGTERM, &g_saved_term, nullptr);
  g_active_launcher = nullptr;
}

bool interrupt_requested() noexcept {
  return g_interrupt_signal != 0;
}

}  // namespace iobench::run
