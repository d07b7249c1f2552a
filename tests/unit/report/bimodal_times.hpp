#pragma once
// Simulated elapsed times for the report's simulation tests (the sequential rule's error rates,
// the two-level rule's false alarms), from a fixed seed (common/splitmix64.hpp), so every figure
// is the same on every machine.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "common/splitmix64.hpp"

namespace iobench::report::testing {

// Elapsed times of a machine with two levels: 90 % of runs near 1 (log-sd 2 %), 10 % about
// 10 % slower and wider (log-sd 4 %), as a cell whose runs now and then meet a busy neighbour.
class BimodalTimes {
 public:
  explicit BimodalTimes(std::uint64_t seed) : state_(seed) {}
  double next(double scale) {
    const bool slow = uniform() < 0.1;
    const double log_time = slow ? std::log(1.10) + 0.04 * normal() : 0.02 * normal();
    return scale * std::exp(log_time);
  }

 private:
  double uniform() {  // in (0, 1)
    return (static_cast<double>(splitmix64(state_) >> 11) + 0.5) * 0x1.0p-53;
  }
  double normal() {  // Box-Muller
    const double r = std::sqrt(-2 * std::log(uniform()));
    return r * std::cos(2 * std::numbers::pi * uniform());
  }
  std::uint64_t state_;
};

}  // namespace iobench::report::testing
