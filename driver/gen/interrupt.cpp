#include "driver/gen/interrupt.hpp"

#include "common/error.hpp"

namespace iobench::gen::detail {
namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void on_signal(int signal_number) {
  g_signal = signal_number;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_signal = 0;
  struct sigaction action {};
  action.sa_handler = &on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // the writer polls; a write(2) may finish its block
  ::sigaction(SIGINT, &action, &saved_int_);
  ::sigaction(SIGTERM, &action, &saved_term_);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &saved_int_, nullptr);
  ::sigaction(SIGTERM, &saved_term_, nullptr);
}

void throw_if_interrupted() {
  if (g_signal == 0) return;
  throw Error(g_signal == SIGINT ? "interrupted (SIGINT); nothing written"
                                 : "interrupted (SIGTERM); nothing written",
              kExitInterrupted);
}

}  // namespace iobench::gen::detail
