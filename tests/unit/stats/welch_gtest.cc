// Welch's t-test (driver/stats/welch.hpp) against values computed with mpmath at 30 digits (R:
// t.test(b, a) gives the same t, df and p).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/stats/welch.hpp"

namespace iobench::stats {
namespace {

TEST(Welch, MatchesMpmath) {
  const std::vector<double> a{1, 2, 3, 4};
  const std::vector<double> b{2, 4, 6, 8, 10};
  const WelchTest test = welch_t_test(a, b);
  EXPECT_NEAR(test.t, 2.25143632315936914893, 1e-12);
  EXPECT_NEAR(test.df, 5.52078774617067833699, 1e-12);
  EXPECT_NEAR(test.p_value, 0.0691335931923924129725, 1e-12);
  const std::vector<double> same{3, 3, 3};
  const std::vector<double> higher{4, 4};
  EXPECT_EQ(welch_t_test(same, same).p_value, 1);
  EXPECT_EQ(welch_t_test(same, higher).p_value, 0);
  EXPECT_EQ(welch_t_test(std::vector<double>{1}, higher).p_value, 1);  // too few to test
}

TEST(Welch, TheSignFollowsTheSecondSample) {
  const std::vector<double> a{1, 2, 3, 4};
  const std::vector<double> b{2, 4, 6, 8, 10};
  const WelchTest forward = welch_t_test(a, b);
  const WelchTest backward = welch_t_test(b, a);
  EXPECT_DOUBLE_EQ(backward.t, -forward.t);
  EXPECT_DOUBLE_EQ(backward.df, forward.df);
  EXPECT_DOUBLE_EQ(backward.p_value, forward.p_value);
  EXPECT_EQ(welch_t_test(std::vector<double>{3, 3}, std::vector<double>{2, 2}).t, -INFINITY);
}

}  // namespace
}  // namespace iobench::stats
