#pragma once
// What the files of the spawner's libc-only core (measure.cpp, worker_start.cpp,
// worker_wait.cpp) share: the clock every deadline and elapsed_s is on, a run's error text, and
// closing a descriptor. libc only (protocol.hpp says why).
#include <time.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>

#include "driver/spawn/protocol.hpp"

namespace iobench::spawn {

inline double monotonic_s() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// Why the run could not be started or measured, into response.error.
__attribute__((format(printf, 2, 3))) inline void set_error(wire::Response& response,
                                                            const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(response.error, sizeof response.error, format, args);
  va_end(args);
}

inline void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace iobench::spawn
