#pragma once
// /proc files read again and again through one open descriptor each. A pread at offset 0 makes
// the kernel generate the text anew, so a run's samples (docs/driver.md, "Disturbance") cost a
// pread each instead of an open, a read and a close through an ifstream, for the four reads a run
// makes (/proc/stat and the spawner's /proc/PID/stat, before and after).
#include <mutex>
#include <string>
#include <vector>

#include "common/fd.hpp"

namespace iobench::run {

class ProcFiles {
 public:
  // The file's whole text; empty when it cannot be opened or read. Safe from several threads.
  std::string read(const char* path);
  // How many descriptors are open (tests: one per path, however often it is read).
  [[nodiscard]] std::size_t open_count();

 private:
  struct Open {
    std::string path;
    UniqueFd fd;
  };
  int descriptor(const char* path);  // under mutex_; -1 when it cannot be opened

  std::mutex mutex_;
  std::vector<Open> open_;  // a handful of paths: a linear search is the cheapest
  std::string buffer_;
};

}  // namespace iobench::run
