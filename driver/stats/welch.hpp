#pragma once
// Welch's unequal-variance t-test, the change-point test's judge (change_points.hpp).
#include <span>

namespace iobench::stats {

struct WelchTest {
  double t = 0;        // (mean(b) - mean(a)) / standard error
  double df = 0;       // Welch-Satterthwaite degrees of freedom
  double p_value = 1;  // two-sided
};
// Welch's t-test of a against b (R: t.test(b, a)); each needs two values or more (else p = 1).
// Two samples without spread give p = 0 when their means differ, 1 when they do not.
WelchTest welch_t_test(std::span<const double> a, std::span<const double> b);

}  // namespace iobench::stats
