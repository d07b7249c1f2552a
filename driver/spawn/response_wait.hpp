#pragma once
// Whether the driver waits for a run's result awake (spinning on the channel) or asleep. Awake
// saves a wake-up (tens of microseconds on a VM) when the result comes within the spin window,
// which matters for runs of a millisecond; for a longer run it only burns a CPU the run could use:
// a two-process pipeline on two CPUs lost 2 ms of one CPU per run to it (docs/bench.md, "Timed as
// precisely as hyperfine"). So it waits awake only for a command whose last run was shorter than
// the window, or that has not run yet.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/hash.hpp"

namespace iobench::spawn {

class ResponseWait {
 public:
  explicit ResponseWait(double spin_window_s) : spin_window_s_(spin_window_s) {}

  // A command's key: its argv, hashed (a plan of 100,000 cells keeps 8 bytes a cell, not argv).
  static std::uint64_t key_of(const std::vector<std::string>& argv) {
    StreamHash hash;
    for (const auto& word : argv) hash.update(word.c_str(), word.size() + 1);  // with its NUL
    return hash.digest();
  }

  [[nodiscard]] bool awake(std::uint64_t key) const {
    const auto it = last_elapsed_s_.find(key);
    return it == last_elapsed_s_.end() || it->second < spin_window_s_;
  }
  void ran(std::uint64_t key, double elapsed_s) { last_elapsed_s_[key] = elapsed_s; }

 private:
  double spin_window_s_;
  std::unordered_map<std::uint64_t, double> last_elapsed_s_;
};

}  // namespace iobench::spawn
