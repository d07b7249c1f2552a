#pragma once
// What the spawn tests share: the spawner executable as the driver starts it, a request for a
// command line, and what a descriptor the worker wrote to holds, read from its start.
#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

#include "driver/spawn/spawner.hpp"

namespace iobench::test {

inline std::string read_all(int fd) {
  std::string text;
  char buffer[4096];
  ::lseek(fd, 0, SEEK_SET);
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

// The spawner executable, as the driver starts it.
inline const std::string kSpawner = IOBENCH_BIN_DIR "/iobench-spawner";

inline spawn::SpawnRequest command(std::vector<std::string> argv) {
  spawn::SpawnRequest request;
  request.argv = std::move(argv);
  return request;
}

}  // namespace iobench::test
