#pragma once
// What the spawn tests share: the spawner executable as the driver starts it, a request for a
// command line, and what a descriptor the worker wrote to holds, read from its start.
#include <unistd.h>

#include <fstream>
#include <string>
#include <string_view>
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

// The value of /proc/PID/status's line NAME (the text after "NAME:", leading blanks dropped), or ""
// when there is no such line.
inline std::string proc_status_field(pid_t pid, std::string_view name) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  const std::string key = std::string(name) + ":";
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const std::size_t value = line.find_first_not_of(" \t", key.size());
    return value == std::string::npos ? std::string() : line.substr(value);
  }
  return {};
}

// A process's high-water resident size (VmHWM), in KiB; -1 when the kernel does not say.
inline long vm_hwm_kib(pid_t pid) {
  const std::string kib = proc_status_field(pid, "VmHWM");
  return kib.empty() ? -1 : std::stol(kib);
}

// The spawner executable, as the driver starts it.
inline const std::string kSpawner = IOBENCH_BIN_DIR "/iobench-spawner";

inline spawn::SpawnRequest command(std::vector<std::string> argv) {
  spawn::SpawnRequest request;
  request.argv = std::move(argv);
  return request;
}

}  // namespace iobench::test
