// The Hodges-Lehmann estimates and interval (driver/stats/hodges_lehmann.hpp): R's
// wilcox.test(x, y, conf.int = TRUE)$estimate on cases small enough to sort by hand, and the
// ratio interval's order statistics from the exact U distribution.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "driver/stats/hodges_lehmann.hpp"

namespace iobench::stats {
namespace {

TEST(HodgesLehmann, ShiftIsTheMedianOfThePairwiseDifferences) {
  // R: wilcox.test(c(1, 2, 3), c(4, 5, 6), conf.int = TRUE)$estimate = -3. The nine differences
  // sorted: -5 -4 -4 -3 -3 -3 -2 -2 -1.
  EXPECT_DOUBLE_EQ(hodges_lehmann_shift(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6}),
                   -3);
  // R: wilcox.test(c(3, 7, 12), c(1, 4, 5, 9), conf.int = TRUE)$estimate = 2.5. The twelve
  // differences sorted: -6 -2 -2 -1 2 2 | 3 3 6 7 8 11, the median between the middle two.
  EXPECT_DOUBLE_EQ(
      hodges_lehmann_shift(std::vector<double>{3, 7, 12}, std::vector<double>{1, 4, 5, 9}), 2.5);
  EXPECT_TRUE(std::isnan(hodges_lehmann_shift(std::vector<double>{}, std::vector<double>{1})));
}

TEST(HodgesLehmann, RatioIsTheMedianOfThePairwiseRatios) {
  // candidate / base over {1, 2, 4} x {2, 3, 8}: 0.5 0.75 1 1.5 2 2 3 4 8, median 2 (exp of R's
  // estimate on the logs: wilcox.test(log(c(2, 3, 8)), log(c(1, 2, 4)), conf.int = TRUE)).
  const std::vector<double> base{1, 2, 4};
  const std::vector<double> candidate{2, 3, 8};
  EXPECT_DOUBLE_EQ(hodges_lehmann_ratio(base, candidate), 2);
  EXPECT_TRUE(std::isnan(hodges_lehmann_ratio(std::vector<double>{0, 1}, candidate)));
  // It lies inside its interval.
  const std::vector<double> b5{1.0, 1.1, 1.2, 1.3, 1.4};
  const std::vector<double> c5{2.0, 2.2, 2.4, 2.6, 2.8};
  const auto ci = ratio_confidence_interval(b5, c5);
  ASSERT_TRUE(ci.has_value());
  EXPECT_GT(hodges_lehmann_ratio(b5, c5), ci->low);
  EXPECT_LT(hodges_lehmann_ratio(b5, c5), ci->high);
}

TEST(HodgesLehmann, RatioIntervalFromPairwiseRatios) {
  // m = n = 5: k = 3 (P(U <= 2) = 4/252 <= 0.025 < P(U <= 3) = 7/252), so the 95% interval is
  // the 3rd and 23rd of the 25 sorted ratios.
  const std::vector<double> base{1.0, 1.1, 1.2, 1.3, 1.4};
  const std::vector<double> cand{2.0, 2.2, 2.4, 2.6, 2.8};
  const auto ci = ratio_confidence_interval(base, cand);
  ASSERT_TRUE(ci.has_value());
  std::vector<double> ratios;
  for (double x : base) {
    for (double y : cand) ratios.push_back(y / x);
  }
  std::sort(ratios.begin(), ratios.end());
  EXPECT_DOUBLE_EQ(ci->low, ratios[2]);
  EXPECT_DOUBLE_EQ(ci->high, ratios[22]);
  EXPECT_LT(ci->low, 2.0);
  EXPECT_GT(ci->high, 2.0);
}

TEST(HodgesLehmann, RatioIntervalNeedsEnoughRuns) {
  // 3 and 3: P(U = 0) = 1/20 > 0.025, no 95% interval exists; at 90% it does.
  const std::vector<double> base{1, 2, 3};
  const std::vector<double> cand{2, 3, 4};
  EXPECT_FALSE(ratio_confidence_interval(base, cand, 0.95).has_value());
  EXPECT_TRUE(ratio_confidence_interval(base, cand, 0.90).has_value());
}

}  // namespace
}  // namespace iobench::stats
