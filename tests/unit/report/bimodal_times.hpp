#pragma once
// Simulated elapsed times for the report's simulation tests (the sequential rule's error rates,
// the two-level rule's false alarms), from a fixed seed (tests/unit/seeded_normal.hpp), so every
// figure is the same on every machine.
#include <cmath>
#include <cstdint>

#include "tests/unit/seeded_normal.hpp"

namespace iobench::report::testing {

// Elapsed times of a machine with two levels: 90 % of runs near 1 (log-sd 2 %), 10 % about
// 10 % slower and wider (log-sd 4 %), as a cell whose runs now and then meet a busy neighbour.
class BimodalTimes {
 public:
  explicit BimodalTimes(std::uint64_t seed) : noise_(seed) {}
  double next(double scale) {
    const bool slow = noise_.uniform() < 0.1;
    const double log_time = slow ? std::log(1.10) + 0.04 * noise_.normal() : 0.02 * noise_.normal();
    return scale * std::exp(log_time);
  }

 private:
  test::SeededNormal noise_;
};

}  // namespace iobench::report::testing
