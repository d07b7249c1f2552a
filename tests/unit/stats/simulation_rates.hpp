#pragma once
// What the stopping rules' simulations share: how many comparisons a figure rests on, and the
// bound a measured error rate is held to.
#include <cmath>

namespace iobench::stats::simulation {

constexpr int kComparisons = 2000;

inline double rate(int count) {
  return static_cast<double>(count) / kComparisons;
}

// alpha plus three binomial standard errors of a rate estimated from kComparisons trials.
inline double within_error(double alpha) {
  return alpha + 3 * std::sqrt(alpha * (1 - alpha) / kComparisons);
}

}  // namespace iobench::stats::simulation
