// The two-level rule (driver/stats/two_levels.hpp; docs/reports.md, "Two levels"): exact values
// of its statistic and splits, and its false-alarm rate on one-level series by simulation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "driver/stats/two_levels.hpp"
#include "tests/unit/report/bimodal_times.hpp"

namespace iobench::stats {
namespace {

using report::testing::BimodalTimes;

TEST(TwoLevels, TheStatisticIsTheGapAgainstThePooledSpread) {
  // Means 2 and 12, squared deviations 2 + 2, pooled sd sqrt(4 / 4) = 1: t = 10 / sqrt(2 / 3).
  const std::vector<double> series{1, 2, 3, 11, 12, 13};
  EXPECT_DOUBLE_EQ(split_t(series, 3), 10 * std::sqrt(1.5));
  EXPECT_EQ(split_t(std::vector<double>{1, 1, 1, 2, 2, 2}, 3),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(split_t(std::vector<double>{1, 1, 1, 1}, 2), 0.0);
}

TEST(TwoLevels, TheQuietDriftIsTwoLevelsSplitWhereTheyChange) {
  // The first five runs at 38-44 ms, the rest at 54-59 ms.
  const std::vector<double> series{0.038, 0.041, 0.044, 0.040, 0.042,
                                   0.054, 0.057, 0.059, 0.055, 0.056};
  const auto levels = find_two_levels(series);
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->split, 5u);
  // Means 41.0 and 56.2 ms, squared deviations 20 + 14.8 (µs²·1000), pooled sd 2.086 ms:
  // t = 15.2 / (2.086 sqrt(2 / 5)).
  EXPECT_NEAR(levels->t, 15.2 / (std::sqrt(34.8 / 8) * std::sqrt(0.4)), 1e-9);
  // The same drift the other way, and two levels constant within each.
  const std::vector<double> down{0.056, 0.058, 0.057, 0.040, 0.041, 0.040, 0.042};
  ASSERT_TRUE(find_two_levels(down).has_value());
  EXPECT_EQ(find_two_levels(down)->split, 3u);
  EXPECT_EQ(find_two_levels(std::vector<double>{1, 1, 1, 2, 2, 2})->split, 3u);
}

TEST(TwoLevels, AnOutlierOrALevelOfTwoRunsIsNotALevel) {
  EXPECT_FALSE(find_two_levels(std::vector<double>{1, 1.01, 0.99, 1, 1.5, 1, 1.01, 0.99, 1, 1}));
  // The last two runs slower: a level needs 3 runs, and 1, 2, 2 against the rest is not one.
  EXPECT_FALSE(find_two_levels(std::vector<double>{1, 1, 1, 1, 1, 1, 1, 1, 2, 2}));
  EXPECT_FALSE(find_two_levels(std::vector<double>{1, 1, 1, 1, 1, 1}));  // one level
  EXPECT_FALSE(find_two_levels(std::vector<double>{1, 1, 2, 2, 2}));     // too few runs
}

TEST(TwoLevels, AStrayRunDoesNotHideTwoLevels) {
  // Five runs near 10 ms, the third of them 500 ms (a stray: a loaded machine's one slow run),
  // then five near 200 ms. The stray widens the first level's spread so much that no split's
  // t reaches 6; without it the levels are plain.
  const std::vector<double> series{0.0101, 0.0103, 0.5,    0.0102, 0.0104,
                                   0.2001, 0.2004, 0.2002, 0.2006, 0.2003};
  for (std::size_t k = 3; k <= 7; ++k) EXPECT_LT(split_t(series, k), 6) << k;
  const auto levels = find_two_levels(series);
  ASSERT_TRUE(levels.has_value());
  EXPECT_EQ(levels->split, 5u);
  const std::vector<double> kept{0.0101, 0.0103, 0.0102, 0.0104, 0.2001,
                                 0.2004, 0.2002, 0.2006, 0.2003};
  EXPECT_DOUBLE_EQ(levels->t, split_t(kept, 4));
  // On a loaded machine (the e2e test's runs under two busy loops): the stray pulls the
  // least-squares split to before it (k = 3, t 1.8); the median split does not.
  const std::vector<double> loaded{0.0402, 0.0356, 0.0514, 0.5244, 0.0357,
                                   0.0442, 0.2446, 0.2241, 0.2402, 0.2202};
  EXPECT_EQ(median_split(loaded, 3), 6u);
  ASSERT_TRUE(find_two_levels(loaded).has_value());
  EXPECT_EQ(find_two_levels(loaded)->split, 6u);
  // A stray in one level is still one level.
  EXPECT_FALSE(find_two_levels(std::vector<double>{1, 1.01, 0.99, 1, 5, 1, 1.01, 0.99, 1, 1}));
}

TEST(TwoLevels, AStepBelowTheMinimumIsNotReported) {
  // A 1 % step with almost no noise: clear to the t statistic, below the 2 % minimum step.
  const std::vector<double> step{1.000, 1.0001, 0.9999, 1.000, 1.010, 1.0101, 1.0099, 1.010};
  EXPECT_FALSE(find_two_levels(step));
  TwoLevelsOptions any_step;
  any_step.min_step = 0;
  ASSERT_TRUE(find_two_levels(step, any_step));
  EXPECT_EQ(find_two_levels(step, any_step)->split, 4u);
}

// 2,000 series of one level from the skewed, bimodal times of the sequential rule's simulation
// (90 % near 1, 10 % about 10 % slower), for 10 and for 20 runs: the rate of series called two
// levels; and how often a 20 % step halfway through is found in the same noise (whose slow mode,
// 10 % slower, widens both levels).
double rate(std::size_t runs, double step) {
  constexpr int kSeries = 2000;
  int found = 0;
  for (std::uint64_t s = 0; s < kSeries; ++s) {
    BimodalTimes times(std::uint64_t{0x1e7e1000} + s);
    std::vector<double> series;
    for (std::size_t i = 0; i < runs; ++i) series.push_back(times.next(i < runs / 2 ? 1 : step));
    if (find_two_levels(series)) ++found;
  }
  return static_cast<double>(found) / kSeries;
}

TEST(TwoLevels, FalseAlarmsOnOneLevelStayUnderOnePercent) {
  const double ten = rate(10, 1.0);
  const double twenty = rate(20, 1.0);
  const double power_ten = rate(10, 1.20);
  const double power_twenty = rate(20, 1.20);
  std::printf(
      "two levels: one level called two in %.4f (10 runs), %.4f (20 runs); "
      "a 20 %% step found in %.4f (10 runs), %.4f (20 runs)\n",
      ten, twenty, power_ten, power_twenty);
  EXPECT_LE(ten, 0.01);
  EXPECT_LE(twenty, 0.01);
  EXPECT_GE(power_ten, 0.5);
  EXPECT_GE(power_twenty, 0.8);
}

}  // namespace
}  // namespace iobench::stats
