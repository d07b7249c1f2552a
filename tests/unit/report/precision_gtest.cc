// The precision target's statistics (driver/report/precision.hpp) against values computed by hand
// (python3: statistics.stdev, math.sqrt(math.pi / 2), Student's t from the table, checked by
// integrating the t density numerically to 1e-8).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "driver/report/precision.hpp"

namespace iobench::report {
namespace {

TEST(StudentT975, TableAndExpansionMeetAtThirty) {
  EXPECT_DOUBLE_EQ(student_t_975(1), 12.706204736);
  EXPECT_DOUBLE_EQ(student_t_975(2), 4.302652730);
  EXPECT_DOUBLE_EQ(student_t_975(30), 2.042272456);
  EXPECT_NEAR(student_t_975(31), 2.0395134200869105, 1e-12);
  EXPECT_NEAR(student_t_975(100), 1.9839715184496338, 1e-12);
  EXPECT_GT(student_t_975(1000000), 1.959963984540054);          // t is wider than z, ...
  EXPECT_NEAR(student_t_975(1000000), 1.959963984540054, 3e-6);  // ... by (z^3 + z) / 4v
  EXPECT_TRUE(std::isinf(student_t_975(0)));
}

TEST(MedianInterval95, ThreeRuns) {
  const std::vector<double> runs{10.0, 10.1, 9.9};
  const MedianInterval interval = median_interval_95(runs);
  EXPECT_DOUBLE_EQ(interval.median, 10.0);
  EXPECT_NEAR(interval.half_width, 0.31134049133565445, 1e-12);
  EXPECT_NEAR(interval.half_width_pct, 3.1134049133565442, 1e-10);
}

TEST(MedianInterval95, OneOutlierWidensIt) {
  const std::vector<double> runs{24.5, 24.6, 24.4, 24.7, 30.0};
  EXPECT_NEAR(median_interval_95(runs).half_width_pct, 15.434652698166742, 1e-10);
}

TEST(MedianInterval95, OneValueHasNoInterval) {
  const std::vector<double> runs{1.0};
  EXPECT_TRUE(std::isnan(median_interval_95(runs).half_width));
}

TEST(PreciseEnough, FollowsMinMaxAndTarget) {
  const RepeatTarget target{3, 10, 2.0};
  const std::vector<double> tight{1.0, 1.01, 0.99, 1.02, 0.98, 1.0};  // ± 1.86 %
  EXPECT_TRUE(precise_enough(tight, target));
  EXPECT_FALSE(precise_enough(tight, RepeatTarget{3, 10, 1.8}));
  EXPECT_FALSE(precise_enough(std::vector<double>{1.0, 1.0}, target)) << "below min";
  EXPECT_TRUE(precise_enough(std::vector<double>{1.0, 1.0, 1.0}, target)) << "no spread at min";
  const std::vector<double> noisy{10.0, 10.1, 9.9};  // ± 3.1 %
  EXPECT_FALSE(precise_enough(noisy, target));
  std::vector<double> ten(10, 1.0);
  ten[0] = 5.0;
  EXPECT_TRUE(precise_enough(ten, target)) << "max reached, however noisy";
}

TEST(PreciseEnough, PlainRepeatsMeansExactlyThatMany) {
  const RepeatTarget plain{5, 5, 0};
  EXPECT_FALSE(precise_enough(std::vector<double>{1, 1, 1, 1}, plain));
  EXPECT_TRUE(precise_enough(std::vector<double>{1, 1, 1, 1, 1}, plain));
}

}  // namespace
}  // namespace iobench::report
