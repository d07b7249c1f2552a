// Statistics against exact values (hand-computed, or from the Mann-Whitney tables).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "driver/report/stats.hpp"

namespace iobench::report {
namespace {

TEST(Stats, MedianOddCount) {
  const std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(median(v), 3);
}

TEST(Stats, MedianEvenCountIsMeanOfMiddlePair) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
}

// That no statistic reorders the caller's sample is the type's job (std::span<const double>).
// What can go wrong is the selection in the copy (nth_element, then the largest of the lower
// half for an even count): every order of a sample with ties must give the sorted definition's
// median and MAD, through median/mad and through summarize's own path.
TEST(Stats, MedianAndMadAreTheSameForEveryOrderOfTheSample) {
  struct Case {
    std::vector<double> sample;  // sorted: next_permutation starts from the first order
    double median;
    double mad;
  };
  // {1 2 2 3 7 9}: (2 + 3) / 2; deviations .5 .5 .5 1.5 4.5 6.5. {1 4 4 5 8}: 4; 0 0 1 3 4.
  for (Case c : {Case{{1, 2, 2, 3, 7, 9}, 2.5, 1.0}, Case{{1, 4, 4, 5, 8}, 4.0, 1.0}}) {
    do {
      EXPECT_DOUBLE_EQ(median(c.sample), c.median) << ::testing::PrintToString(c.sample);
      EXPECT_DOUBLE_EQ(mad(c.sample), c.mad) << ::testing::PrintToString(c.sample);
      const SampleStats s = summarize(c.sample);
      EXPECT_DOUBLE_EQ(s.median, c.median) << ::testing::PrintToString(c.sample);
      EXPECT_DOUBLE_EQ(s.mad, c.mad) << ::testing::PrintToString(c.sample);
    } while (std::next_permutation(c.sample.begin(), c.sample.end()));
  }
}

TEST(Stats, EmptySampleGivesNaN) {
  const std::vector<double> v;
  EXPECT_TRUE(std::isnan(median(v)));
  EXPECT_TRUE(std::isnan(mad(v)));
  EXPECT_TRUE(std::isnan(mean(v)));
  EXPECT_EQ(summarize(v).n, 0u);
}

TEST(Stats, MinMaxMean) {
  const std::vector<double> v{2, 8, 4, 6};
  EXPECT_DOUBLE_EQ(min(v), 2);
  EXPECT_DOUBLE_EQ(max(v), 8);
  EXPECT_DOUBLE_EQ(mean(v), 5);
}

TEST(Stats, SampleStddevDividesByNMinusOne) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};  // sum of squares 32, n - 1 = 7
  EXPECT_DOUBLE_EQ(stddev(v), std::sqrt(32.0 / 7.0));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{1.0})));
}

TEST(Stats, MadIsUnscaled) {
  // median 2; deviations 1 1 0 0 2 4 7 -> median 1
  const std::vector<double> v{1, 1, 2, 2, 4, 6, 9};
  EXPECT_DOUBLE_EQ(mad(v), 1);
}

TEST(Stats, MadOfEqualValuesIsZero) {
  const std::vector<double> v{0.25, 0.25, 0.25, 0.25};
  EXPECT_DOUBLE_EQ(mad(v), 0);
  EXPECT_DOUBLE_EQ(summarize(v).mad, 0);
}

TEST(Stats, SummarizeAgreesWithTheSingleFunctions) {
  const std::vector<double> v{0.52, 0.50, 0.61, 0.49, 0.55, 0.50};
  const SampleStats s = summarize(v);
  EXPECT_EQ(s.n, 6u);
  EXPECT_DOUBLE_EQ(s.median, 0.51);
  EXPECT_DOUBLE_EQ(s.min, 0.49);
  EXPECT_DOUBLE_EQ(s.max, 0.61);
  EXPECT_DOUBLE_EQ(s.mad, mad(v));
  EXPECT_DOUBLE_EQ(s.mean, mean(v));
  EXPECT_DOUBLE_EQ(s.stddev, stddev(v));
}

TEST(Stats, ModifiedZScoreFlagsTheFarValueOnly) {
  // median 10, MAD 1: z(20) = 0.6745 * 10 = 6.745 > 3.5; z(12) = 1.349.
  const std::vector<double> v{9, 10, 10, 11, 12, 20, 9};
  const auto z = modified_z_scores(v);
  EXPECT_NEAR(z[5], 6.745, 1e-12);
  EXPECT_NEAR(z[4], 1.349, 1e-12);
  EXPECT_EQ(outliers(v), (std::vector<std::size_t>{5}));
}

TEST(Stats, ModifiedZScoreWithZeroMadUsesMeanAbsoluteDeviation) {
  // median 1, MAD 0, meanAD = 4/5 = 0.8: z(5) = 4 / (1.253314 * 0.8) = 3.989 > 3.5.
  const std::vector<double> v{1, 1, 1, 1, 5};
  const auto z = modified_z_scores(v);
  EXPECT_NEAR(z[4], 4 / (1.253314 * 0.8), 1e-12);
  EXPECT_EQ(outliers(v), (std::vector<std::size_t>{4}));
  EXPECT_TRUE(outliers(std::vector<double>{2, 2, 2}).empty());
}

TEST(Stats, CountingOutliersFromAKnownMedianAndMadIsTheSameTest) {
  const std::vector<double> far{9, 10, 10, 11, 12, 20, 9, 30};
  const std::vector<double> zero_mad{1, 1, 1, 1, 5};
  for (const auto* v : {&far, &zero_mad}) {
    const SampleStats s = summarize(*v);
    for (const double threshold : {1.0, 3.5, 6.0, 10.0}) {
      EXPECT_EQ(count_outliers(*v, s.median, s.mad, threshold), outliers(*v, threshold).size())
          << "threshold " << threshold << ", MAD " << s.mad;
    }
  }
  EXPECT_EQ(count_outliers(far, 10.5, 1.5), 2U);  // 20 and 30: z 4.3 and 8.8
  EXPECT_EQ(count_outliers(zero_mad, 1, 0), 1U);  // the mean absolute deviation's way
  EXPECT_EQ(count_outliers(std::vector<double>{}, 0, 0), 0U);
}

TEST(Stats, ExactUDistributionMatchesTheTable) {
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
  EXPECT_DOUBLE_EQ(mann_whitney_cdf(3, 4, -1), 0.0);
}

TEST(Stats, MannWhitneyExactSeparatedSamples) {
  const std::vector<double> a{1, 2, 3};
  const std::vector<double> b{4, 5, 6};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_a, 0);
  EXPECT_DOUBLE_EQ(r.u_b, 9);
  EXPECT_NEAR(r.p_value, 0.1, 1e-15);  // 2 / C(6,3)
}

TEST(Stats, MannWhitneyExactKnownPValue) {
  // U_a = 3 for 5 and 5: p = 2 * 7/252.
  const std::vector<double> a{1, 2, 3, 7, 5.5};  // 7 beats 4 and 5 and 6; 5.5 beats 4 and 5
  const std::vector<double> b{4, 5, 6, 8, 9};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_DOUBLE_EQ(r.u_a, 5);
  EXPECT_NEAR(r.p_value, 2 * mann_whitney_cdf(5, 5, 5), 1e-15);
  EXPECT_NEAR(r.p_value, 2 * 19.0 / 252, 1e-15);       // U <= 5: 1+1+2+3+5+7 = 19
  EXPECT_NEAR(r.p_value, 0.15079365079365079, 1e-15);  // scipy 1.10 mannwhitneyu
}

TEST(Stats, MannWhitneyExactWhenOneSampleIsSmall) {
  // 9 and 4 without ties: exact, as scipy's method "auto" (one sample has 8 or fewer values).
  const std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<double> b{3.5, 10, 11, 12};
  const MannWhitney r = mann_whitney_u(a, b);
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u_a, 6);
  EXPECT_NEAR(r.p_value, 0.07552447552447553, 1e-14);  // scipy 1.10 mannwhitneyu
}

TEST(Stats, MannWhitneyTiesUseTheCorrectedNormalApproximation) {
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

TEST(Stats, MannWhitneyAllEqualIsNoEvidence) {
  const std::vector<double> a{1, 1, 1};
  const std::vector<double> b{1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(mann_whitney_u(a, b).p_value, 1);
}

TEST(Stats, MannWhitneyLargeSamplesUseTheNormalApproximation) {
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

TEST(Stats, NormalQuantileInvertsTheTail) {
  EXPECT_NEAR(normal_quantile(0.975), 1.959963984540054, 1e-12);
  EXPECT_NEAR(normal_quantile(0.5), 0, 1e-12);
  EXPECT_NEAR(normal_quantile(0.001), -3.090232306167813, 1e-10);
  EXPECT_NEAR(normal_sf(1.959963984540054), 0.025, 1e-15);
}

TEST(Stats, SmallestPValue) {
  EXPECT_NEAR(smallest_p_value(3, 3), 0.1, 1e-12);
  EXPECT_NEAR(smallest_p_value(4, 4), 2.0 / 70, 1e-12);
  EXPECT_DOUBLE_EQ(smallest_p_value(1, 1), 1);
}

TEST(Stats, RatioIntervalFromPairwiseRatios) {
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

TEST(Stats, RatioIntervalNeedsEnoughRuns) {
  // 3 and 3: P(U = 0) = 1/20 > 0.025, no 95% interval exists; at 90% it does.
  const std::vector<double> base{1, 2, 3};
  const std::vector<double> cand{2, 3, 4};
  EXPECT_FALSE(ratio_confidence_interval(base, cand, 0.95).has_value());
  EXPECT_TRUE(ratio_confidence_interval(base, cand, 0.90).has_value());
}

}  // namespace
}  // namespace iobench::report
