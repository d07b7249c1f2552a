// Axis ticks (issue 30, "Pictures that read right"): 1-2-2.5-5 steps, each label exact, so that
// a 2.5 ms step does not read "0, 2, 5, 8, 10".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/report/svg.hpp"

namespace iobench::report::svg {
namespace {

std::vector<std::string> labels(double step, int count, const Unit& unit) {
  std::vector<std::string> out;
  for (int t = 0; t <= count; ++t) out.push_back(tick_label(step * t, step, unit));
  return out;
}

TEST(SvgTicks, StepsAreOneTwoTwoAndAHalfOrFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_step(10, 5), 2);
  EXPECT_DOUBLE_EQ(nice_step(12, 5), 2.5);
  EXPECT_DOUBLE_EQ(nice_step(0.012, 5), 0.0025);
  EXPECT_DOUBLE_EQ(nice_step(20, 5), 5);
  EXPECT_DOUBLE_EQ(nice_step(45, 5), 10);
  EXPECT_DOUBLE_EQ(nice_step(0.9, 10), 0.1);
}

TEST(SvgTicks, AQuarterStepIsLabelledWithTheDecimalItNeeds) {
  const Unit ms{1e-3, "ms"};
  EXPECT_EQ(labels(0.0025, 6, ms), (std::vector<std::string>{"0.0 ms", "2.5 ms", "5.0 ms", "7.5 ms",
                                                             "10.0 ms", "12.5 ms", "15.0 ms"}));
  EXPECT_EQ(labels(0.25, 2, Unit{1, "s"}),
            (std::vector<std::string>{"0.00 s", "0.25 s", "0.50 s"}));
}

TEST(SvgTicks, WholeAndTenthStepsKeepTheirFewDecimals) {
  const Unit s{1, "s"};
  EXPECT_EQ(labels(2, 3, s), (std::vector<std::string>{"0 s", "2 s", "4 s", "6 s"}));
  EXPECT_EQ(labels(0.1, 3, s), (std::vector<std::string>{"0.0 s", "0.1 s", "0.2 s", "0.3 s"}));
  EXPECT_EQ(labels(25, 2, Unit{1, "k"}), (std::vector<std::string>{"0 k", "25 k", "50 k"}));
  EXPECT_EQ(labels(0.0005, 2, Unit{1e-3, "ms"}),
            (std::vector<std::string>{"0.0 ms", "0.5 ms", "1.0 ms"}));
}

}  // namespace
}  // namespace iobench::report::svg
