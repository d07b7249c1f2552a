#pragma once
// SplitMix64 (Steele, Lea, Flood): a tiny seeded generator whose sequence is the same on every
// platform and compiler, so whatever it makes is reproducible from the recorded seed: `gen`
// expands a seed into its xoshiro state and chunk seeds with it (docs/generators.md), the plan
// shuffles the measured runs of `order: shuffle` with it.
#include <cstdint>

namespace iobench {

// The next value of the sequence; advances state.
inline std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace iobench
