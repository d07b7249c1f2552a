// Descriptive statistics (driver/stats/descriptive.hpp) against values computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "driver/stats/descriptive.hpp"

namespace iobench::stats {
namespace {

TEST(Descriptive, MedianOddCount) {
  const std::vector<double> v{5, 1, 3};
  EXPECT_DOUBLE_EQ(median(v), 3);
}

TEST(Descriptive, MedianEvenCountIsMeanOfMiddlePair) {
  const std::vector<double> v{4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(median(v), 2.5);
}

// That no statistic reorders the caller's sample is the type's job (std::span<const double>).
// What can go wrong is the selection in the copy (nth_element, then the largest of the lower
// half for an even count): every order of a sample with ties must give the sorted definition's
// median and MAD, through median/mad and through summarize's own path.
TEST(Descriptive, MedianAndMadAreTheSameForEveryOrderOfTheSample) {
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

TEST(Descriptive, EmptySampleGivesNaN) {
  const std::vector<double> v;
  EXPECT_TRUE(std::isnan(median(v)));
  EXPECT_TRUE(std::isnan(mad(v)));
  EXPECT_TRUE(std::isnan(mean(v)));
  EXPECT_EQ(summarize(v).n, 0u);
}

TEST(Descriptive, MinMaxMean) {
  const std::vector<double> v{2, 8, 4, 6};
  EXPECT_DOUBLE_EQ(min(v), 2);
  EXPECT_DOUBLE_EQ(max(v), 8);
  EXPECT_DOUBLE_EQ(mean(v), 5);
}

TEST(Descriptive, SampleStddevDividesByNMinusOne) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};  // sum of squares 32, n - 1 = 7
  EXPECT_DOUBLE_EQ(stddev(v), std::sqrt(32.0 / 7.0));
  EXPECT_TRUE(std::isnan(stddev(std::vector<double>{1.0})));
}

TEST(Descriptive, MadIsUnscaled) {
  // median 2; deviations 1 1 0 0 2 4 7 -> median 1
  const std::vector<double> v{1, 1, 2, 2, 4, 6, 9};
  EXPECT_DOUBLE_EQ(mad(v), 1);
}

TEST(Descriptive, MadOfEqualValuesIsZero) {
  const std::vector<double> v{0.25, 0.25, 0.25, 0.25};
  EXPECT_DOUBLE_EQ(mad(v), 0);
  EXPECT_DOUBLE_EQ(summarize(v).mad, 0);
}

TEST(Descriptive, SummarizeAgreesWithTheSingleFunctions) {
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

TEST(Descriptive, ModifiedZScoreFlagsTheFarValueOnly) {
  // median 10, MAD 1: z(20) = 0.6745 * 10 = 6.745 > 3.5; z(12) = 1.349.
  const std::vector<double> v{9, 10, 10, 11, 12, 20, 9};
  const auto z = modified_z_scores(v);
  EXPECT_NEAR(z[5], 6.745, 1e-12);
  EXPECT_NEAR(z[4], 1.349, 1e-12);
  EXPECT_EQ(outliers(v), (std::vector<std::size_t>{5}));
}

TEST(Descriptive, ModifiedZScoreWithZeroMadUsesMeanAbsoluteDeviation) {
  // median 1, MAD 0, meanAD = 4/5 = 0.8: z(5) = 4 / (1.253314 * 0.8) = 3.989 > 3.5.
  const std::vector<double> v{1, 1, 1, 1, 5};
  const auto z = modified_z_scores(v);
  EXPECT_NEAR(z[4], 4 / (1.253314 * 0.8), 1e-12);
  EXPECT_EQ(outliers(v), (std::vector<std::size_t>{4}));
  EXPECT_TRUE(outliers(std::vector<double>{2, 2, 2}).empty());
}

TEST(Descriptive, CountingOutliersFromAKnownMedianAndMadIsTheSameTest) {
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

TEST(Descriptive, ARatiosRelativeSpreadCombinesBothMeansRelativeSpreads) {
  // 10 % and 5 % relative: sqrt(0.01 + 0.0025) (hyperfine: 2.00 ± 0.26 for 22 ± 2 over 11 ± 1).
  EXPECT_DOUBLE_EQ(ratio_relative_stddev(2.0, 0.2, 4.0, 0.2), std::sqrt(0.0125));
  EXPECT_NEAR(2.0 * ratio_relative_stddev(0.022, 0.002, 0.011, 0.001), 0.257, 5e-4);
  EXPECT_TRUE(std::isnan(ratio_relative_stddev(1.0, NAN, 1.0, 0.1)));
}

}  // namespace
}  // namespace iobench::stats
