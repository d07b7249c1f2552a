// The paired ratio and its interval (driver/stats/signed_rank.hpp): the signed-rank
// distribution's exact values, and the interval's order statistics on log ratios chosen so that
// the Walsh averages can be listed by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/stats/signed_rank.hpp"

namespace iobench::stats {
namespace {

TEST(SignedRank, DistributionOfThreePairs) {
  // The 8 sign patterns of ranks 1, 2, 3 sum to 0, 1, 2, 3, 3, 4, 5, 6.
  const std::vector<double> dist = signed_rank_distribution(3);
  const std::vector<double> expected{1.0 / 8, 1.0 / 8, 1.0 / 8, 2.0 / 8, 1.0 / 8, 1.0 / 8, 1.0 / 8};
  ASSERT_EQ(dist.size(), expected.size());
  for (std::size_t t = 0; t < dist.size(); ++t) EXPECT_DOUBLE_EQ(dist[t], expected[t]) << t;
}

TEST(SignedRank, LowerTailOfSevenPairsMatchesTheTables) {
  // R: psignrank(0:3, 7) = 1/128, 2/128, 3/128, 5/128; so qsignrank(0.025, 7) = 3.
  const std::vector<double> dist = signed_rank_distribution(7);
  ASSERT_EQ(dist.size(), 29U);
  EXPECT_DOUBLE_EQ(dist[0], 1.0 / 128);
  EXPECT_DOUBLE_EQ(dist[0] + dist[1] + dist[2], 3.0 / 128);
  EXPECT_DOUBLE_EQ(dist[3], 2.0 / 128);  // {3} and {1, 2}
  double total = 0;
  for (const double p : dist) total += p;
  EXPECT_DOUBLE_EQ(total, 1);
  EXPECT_DOUBLE_EQ(dist[28], dist[0]);  // symmetric
}

// Candidate run i is e^i times base run i: log ratios 1..7, whose 28 Walsh averages (i + j) / 2
// run 1, 1.5, 2, 2, 2.5, 2.5, 3 ... 6, 6, 6.5, 7. With 7 pairs the 95 % interval is the 3rd and
// the 26th of them (k = 3 above): [e^2, e^6]; the estimate is their median, e^4.
TEST(PairedRatio, SevenPairsGiveTheThirdAndTwentySixthWalshAverages) {
  const std::vector<double> base{1, 2, 3, 1, 2, 3, 1};
  std::vector<double> candidate;
  for (std::size_t i = 0; i < base.size(); ++i)
    candidate.push_back(base[i] * std::exp(static_cast<double>(i + 1)));
  const auto ci = paired_ratio_interval(base, candidate);
  ASSERT_TRUE(ci.has_value());
  EXPECT_NEAR(ci->low, std::exp(2.0), 1e-9);
  EXPECT_NEAR(ci->high, std::exp(6.0), 1e-9);
  EXPECT_NEAR(paired_ratio(base, candidate), std::exp(4.0), 1e-9);
}

TEST(PairedRatio, SixPairsReachOnlyTheExtremes) {
  // P(T+ <= 0) = 1/64 <= 0.025 < P(T+ <= 1) = 2/64: k = 1, the smallest and the largest log
  // ratio (its own Walsh average).
  const std::vector<double> base{10, 10, 10, 10, 10, 10};
  const std::vector<double> candidate{9, 11, 12, 10.5, 13, 9.5};
  const auto ci = paired_ratio_interval(base, candidate);
  ASSERT_TRUE(ci.has_value());
  EXPECT_NEAR(ci->low, 0.9, 1e-12);
  EXPECT_NEAR(ci->high, 1.3, 1e-12);
}

TEST(PairedRatio, TooFewPairsOrBadTimesGiveNothing) {
  // Five pairs: P(T+ <= 0) = 1/32 > 0.025, so no 95 % interval exists.
  const std::vector<double> five{1, 2, 3, 4, 5};
  EXPECT_FALSE(paired_ratio_interval(five, five).has_value());
  EXPECT_TRUE(paired_ratio_interval(five, five, 0.9).has_value());  // 1/32 <= 0.05
  const std::vector<double> with_zero{1, 0, 1, 1, 1, 1, 1};
  const std::vector<double> seven{1, 1, 1, 1, 1, 1, 1};
  EXPECT_FALSE(paired_ratio_interval(with_zero, seven).has_value());
  EXPECT_TRUE(std::isnan(paired_ratio(with_zero, seven)));
  EXPECT_TRUE(std::isnan(paired_ratio(std::vector<double>{}, seven)));
}

TEST(PairedRatio, PairsAreTheFirstRunsOfEachSide) {
  // The longer side's extra runs have no partner and are left out.
  const std::vector<double> base{1, 1, 1, 1, 1, 1, 1, 100};
  const std::vector<double> candidate{2, 2, 2, 2, 2, 2, 2};
  const auto ci = paired_ratio_interval(base, candidate);
  ASSERT_TRUE(ci.has_value());
  EXPECT_DOUBLE_EQ(ci->low, 2);
  EXPECT_DOUBLE_EQ(ci->high, 2);
}

// What pairing is for: a round factor that moves both runs of a round alike (here 1 to 1.9)
// hides a 5 % slowdown from the unpaired interval and not from the paired one.
TEST(PairedRatio, AFactorCommonToARoundCancels) {
  std::vector<double> base;
  std::vector<double> candidate;
  for (int round = 0; round < 10; ++round) {
    const double factor = 1 + 0.1 * ((round * 7) % 10);
    base.push_back(factor);
    candidate.push_back(factor * 1.05);
  }
  const auto paired = paired_ratio_interval(base, candidate);
  ASSERT_TRUE(paired.has_value());
  EXPECT_NEAR(paired->low, 1.05, 1e-12);
  const auto unpaired = ratio_confidence_interval(base, candidate);
  ASSERT_TRUE(unpaired.has_value());
  EXPECT_LT(unpaired->low, 1);
}

}  // namespace
}  // namespace iobench::stats
