#pragma once
// Normal noise from a fixed seed for the simulation tests (SplitMix64, common/splitmix64.hpp, then
// Box-Muller), so every figure they quote is the same on every machine.
#include <cmath>
#include <cstdint>
#include <numbers>

#include "common/splitmix64.hpp"

namespace iobench::test {

class SeededNormal {
 public:
  explicit SeededNormal(std::uint64_t seed) : state_(seed) {}
  double uniform() {  // in (0, 1)
    return (static_cast<double>(splitmix64(state_) >> 11) + 0.5) * 0x1.0p-53;
  }
  double normal() {  // standard normal
    const double r = std::sqrt(-2 * std::log(uniform()));
    return r * std::cos(2 * std::numbers::pi * uniform());
  }

 private:
  std::uint64_t state_;
};

}  // namespace iobench::test
