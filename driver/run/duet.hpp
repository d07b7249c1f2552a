#pragma once
// Config order `duet` (docs/bench.md, "Duet"; Bulej et al., ICPE 2020): a pair's runs go at the
// same moment, each pinned to a CPU of its own, the second through a spawner of its own, so both
// meet the same interference and their ratio cancels it.
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "driver/config/config.hpp"
#include "driver/run/launcher.hpp"

namespace iobench::run {

// The two CPUs a pair is pinned to: the first two of `allowed` (the CPUs this process may run
// on); empty when there are fewer than two.
std::optional<std::array<int, 2>> duet_cpus_among(std::span<const int> allowed);
// The CPUs this process may run on (sched_getaffinity), in order.
std::vector<int> allowed_cpus();

// The second launcher of a duet: its own spawner, started here.
class DuetPartner {
 public:
  // For a config whose order is `duet` on a machine with two CPUs for it; empty otherwise, and
  // when the CPUs are missing `warning` says so (the runs then go one at a time, interleaved).
  static std::unique_ptr<DuetPartner> for_config(const config::Config& config,
                                                 std::string& warning);
  DuetPartner(std::array<int, 2> cpus, const std::string& spawner_executable);
  [[nodiscard]] Launcher& launcher() { return launcher_; }
  [[nodiscard]] std::array<int, 2> cpus() const { return cpus_; }

 private:
  std::array<int, 2> cpus_;
  spawn::Spawner spawner_;
  SpawnerLauncher launcher_;
};

}  // namespace iobench::run
