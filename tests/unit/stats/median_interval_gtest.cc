// The median's 95 % interval (driver/stats/median_interval.hpp) against values computed with
// mpmath at 40 digits: Student's t quantile as R's qt(0.975, n - 1), the sample standard
// deviation as python3's statistics.stdev, times sqrt(pi / 2) / sqrt(n).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/stats/median_interval.hpp"

namespace iobench::stats {
namespace {

TEST(MedianInterval95, ThreeRuns) {
  // qt(0.975, 2) = 4.3026527297494639, s = 0.1: 4.30265... * 1.25331... * 0.1 / sqrt(3).
  const std::vector<double> runs{10.0, 10.1, 9.9};
  const MedianInterval interval = median_interval_95(runs);
  EXPECT_DOUBLE_EQ(interval.median, 10.0);
  EXPECT_NEAR(interval.half_width, 0.31134049131752560, 1e-12);
  EXPECT_NEAR(interval.half_width_pct, 3.1134049131752560, 1e-10);
}

TEST(MedianInterval95, OneOutlierWidensIt) {
  const std::vector<double> runs{24.5, 24.6, 24.4, 24.7, 30.0};
  EXPECT_NEAR(median_interval_95(runs).half_width, 3.7969245640195128, 1e-12);
  EXPECT_NEAR(median_interval_95(runs).half_width_pct, 15.434652699266311, 1e-10);
}

TEST(MedianInterval95, ThirtyTwoRunsUseTheExactTQuantile) {
  // 32 runs, 31 degrees of freedom: qt(0.975, 31) = 2.0395134463964085, where the expansion this
  // replaced gave 2.0395134200869 (1.3e-8 relatively narrower). The values 1 .. 32: median
  // 16.5, s = sqrt(32 * 33 / 12) = sqrt(88).
  std::vector<double> runs;
  for (int i = 1; i <= 32; ++i) runs.push_back(i);
  const double s = std::sqrt(88.0);
  const double expected = 2.0395134463964085 * std::sqrt(M_PI / 2) * s / std::sqrt(32.0);
  const MedianInterval interval = median_interval_95(runs);
  EXPECT_DOUBLE_EQ(interval.median, 16.5);
  EXPECT_NEAR(interval.half_width / expected, 1, 1e-14);
}

TEST(MedianInterval95, OneValueHasNoInterval) {
  const std::vector<double> runs{1.0};
  EXPECT_TRUE(std::isnan(median_interval_95(runs).half_width));
  EXPECT_TRUE(std::isnan(median_interval_95(runs).half_width_pct));
}

TEST(MedianInterval95, AZeroMedianIsAnInfiniteShare) {
  const std::vector<double> runs{-1, 0, 1};
  EXPECT_TRUE(std::isinf(median_interval_95(runs).half_width_pct));
}

}  // namespace
}  // namespace iobench::stats
