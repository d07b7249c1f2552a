// The Mann-Whitney U test (driver/stats/mann_whitney.hpp) against the exact tables, R's
// wilcox.test and scipy's mannwhitneyu (the values quoted beside each case).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/stats/mann_whitney.hpp"

namespace iobench::stats {
namespace {

TEST(MannWhitney, ExactUDistributionMatchesTheTable) {
  // m = n = 5: C(10,5) = 252 orderings; U = 0,1,2,3 occur 1,1,2,3 times.
  EXPECT_NEAR(mann_whitney_cdf(5, 5, 2), 4.0 / 252, 1e-15);
  EXPECT_NEAR(mann_whitney_cdf(5, 5, 3), 7.0 / 252, 1e-15);
  // The table's two-sided 5% critical value for 5 and 5 is U = 2: 2 P(U <= 2) < 0.05 <
  // 2 P(U <= 3).
  EXPECT_LT(2 * mann_whitney_cdf(5, 5, 2), 0.05);
  EXPECT_GT(2 * mann_whitney_cdf(5, 5, 3), 0.05);
  // 8 and 8: critical value 13.
  EXPECT_LT(2 * mann_whitney_cdf(8, 8, 13), 0.05);
  EXPECT_GT(2 * mann_whitney_cdf(8, 8, 14), 0.05);
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(3, 4, 12), 1.0);
  // 3 and 3: the 20 orderings give U = 0 .. 9 in 1 1 2 3 3 3 3 2 1 1 ways.
  const std::vector<double> dist = mann_whitney_distribution(3, 3);
  const double ways[] = {1, 1, 2, 3, 3, 3, 3, 2, 1, 1};
  ASSERT_EQ(dist.size(), 10u);
  for (std::size_t u = 0; u < dist.size(); ++u) EXPECT_DOUBLE_EQ(dist[u], ways[u] / 20) << u;
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(3, 4, -1), 0.0);
}

TEST(MannWhitney, ExactSeparatedSamples) {
  // R: wilcox.test(c(1, 2, 3), c(4, 5, 6))$p.value = 0.1
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{4, 5, 6};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_a, 0);
  EXPECT_DOUBLE_EQ(r.u_b, 9);
  EXPECT_NEAR(r.p_value, 0.1, 1e-15);  // 2 / C(6,3)
}

TEST(MannWhitney, ExactKnownPValue) {
  // U_a = 3 for 5 and 5: p = 2 * 7/252.
  const std::vector<double> a{1, 2, 3, 7, 5.5};  // 7 beats 4 and 5 and 6; 5.5 beats 4 and 5
  const std::vector<double> b{4, 5, 6, 8, 9};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(r.u_a, 5);
  EXPECT_NEAR(r.p_value, 2 * mann_whitney_cdf(5, 5, 5), 1e-15);
  EXPECT_NEAR(r.p_value, 2 * 19.0 / 252, 1e-15);       // U <= 5: 1+1+2+3+5+7 = 19
  EXPECT_NEAR(r.p_value, 0.15079365079365079, 1e-15);  // scipy 1.10 mannwhitneyu
}

TEST(MannWhitney, ExactWhenOneSampleIsSmall) {
  // 9 and 4 without ties: exact, as scipy's method "auto" (one sample has 8 or fewer values).
  const std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<double> b{3.5, 10, 11, 12};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_a, 6);
  EXPECT_NEAR(r.p_value, 0.07552447552447553, 1e-14);  // scipy 1.10 mannwhitneyu
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
  // a = {1,2,2,3}, b = {2,3,4,5}. Ranks: 1:1; 2s: 3,3,3 (positions 2-4); 3s: 5.5,5.5; 4:7; 5:8.
  // R_a = 1 + 3 + 3 + 5.5 = 12.5, U_a = 12.5 - 10 = 2.5, U_b = 13.5.
  // Ties: t = 3 and t = 2: sum(t^3 - t) = 24 + 6 = 30. N = 8.
  // sigma^2 = 16/12 * (9 - 30/56) = 11.285714...; z = (13.5 - 8 - 0.5) / sigma.
  const std::vector<double> a{1, 2, 2, 3};
  const std::vector<double> b{2, 3, 4, 5};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_a, 2.5);
  EXPECT_DOUBLE_EQ(r.u_b, 13.5);
  const double sigma = std::sqrt(16.0 / 12.0 * (9.0 - 30.0 / 56.0));
  EXPECT_NEAR(r.z, 5.0 / sigma, 1e-12);
  EXPECT_NEAR(r.p_value, std::erfc(5.0 / sigma / std::sqrt(2.0)), 1e-12);
  EXPECT_NEAR(r.p_value, 0.1366582477381475, 1e-12);  // scipy 1.10 mannwhitneyu, two-sided
}

TEST(MannWhitney, AllEqualIsNoEvidence) {
  const std::vector<double> a{1, 1, 1};
  const std::vector<double> b{1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p_value, 1);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  // 10 and 10, fully separated, no ties: U = 0, sigma^2 = 100 * 21 / 12 = 175,
  // z = (100 - 50 - 0.5) / sqrt(175) = 3.7418; p = 2 * sf(z) = 1.8267e-4.
  std::vector<double> a, b;
  for (int i = 0; i < 10; ++i) {
    a.push_back(i);
    b.push_back(100 + i);
  }
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_FALSE(r.exact);
  EXPECT_NEAR(r.z, 49.5 / std::sqrt(175.0), 1e-12);
  EXPECT_NEAR(r.p_value, 0.00018267179110955002, 1e-15);  // scipy 1.10 mannwhitneyu
}

TEST(MannWhitney, SmallestPValue) {
  EXPECT_NEAR(smallest_p_value(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(smallest_p_value(4, 4), 2.0 / 70, 1e-12);
  EXPECT_DOUBLE_EQ(smallest_p_value(1, 1), 1);
}

}  // namespace
}  // namespace iobench::stats
