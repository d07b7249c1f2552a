#include "driver/stats/welch.hpp"

#include <cmath>
#include <limits>

#include "driver/stats/descriptive.hpp"
#include "driver/stats/distributions.hpp"

namespace iobench::stats {
namespace {

double sample_variance(std::span<const double> x, double mean) {
  double sum = 0;
  for (const double v : x) sum += (v - mean) * (v - mean);
  return sum / static_cast<double>(x.size() - 1);
}

}  // namespace

WelchTest welch_t_test(std::span<const double> a, std::span<const double> b) {
  WelchTest test;
  if (a.size() < 2 || b.size() < 2) return test;
  const double mean_a = mean(a);
  const double mean_b = mean(b);
  const double va = sample_variance(a, mean_a) / static_cast<double>(a.size());
  const double vb = sample_variance(b, mean_b) / static_cast<double>(b.size());
  const double se2 = va + vb;
  if (se2 == 0) {
    test.t = mean_a == mean_b
                 ? 0
                 : std::copysign(std::numeric_limits<double>::infinity(), mean_b - mean_a);
    test.p_value = mean_a == mean_b ? 1 : 0;
    return test;
  }
  test.t = (mean_b - mean_a) / std::sqrt(se2);
  test.df =
      se2 * se2 /
      (va * va / static_cast<double>(a.size() - 1) + vb * vb / static_cast<double>(b.size() - 1));
  test.p_value = student_t_two_sided_p(test.t, test.df);
  return test;
}

}  // namespace iobench::stats
