#include "driver/run/interrupt.hpp"

namespace iobench::run {
namespace {

const Launcher* g_active_launcher = nullptr;
const Launcher* g_active_partner = nullptr;

void cancel_active_launcher(int /*signal_number*/) {
  if (g_active_launcher != nullptr) g_active_launcher->cancel();
  if (g_active_partner != nullptr) g_active_partner->cancel();
}

}  // namespace

InterruptGuard::InterruptGuard() : guard_(/*restart=*/false, &cancel_active_launcher) {}

CancelOnInterrupt::CancelOnInterrupt(const Launcher& launcher, const Launcher* partner) {
  // Nothing runs yet: a signal before this line still sets the flag the loop checks.
  g_active_launcher = &launcher;
  g_active_partner = partner;
}

CancelOnInterrupt::~CancelOnInterrupt() {
  g_active_launcher = nullptr;
  g_active_partner = nullptr;
}

bool interrupt_requested() noexcept {
  return caught_signal() != 0;
}

}  // namespace iobench::run
