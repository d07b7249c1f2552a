#include "driver/gen/interrupt.hpp"

#include "common/error.hpp"

namespace iobench::gen::detail {

void throw_if_interrupted() {
  const int signal_number = caught_signal();
  if (signal_number == 0) return;
  throw Error(signal_number == SIGINT ? "interrupted (SIGINT); nothing written"
                                      : "interrupted (SIGTERM); nothing written",
              kExitInterrupted);
}

}  // namespace iobench::gen::detail
