// The precision target (driver/stats/precision.hpp): when a cell's runs are enough. The
// interval it stops on is tested in tests/unit/stats/median_interval_gtest.cc.
#include <gtest/gtest.h>

#include <vector>

#include "driver/stats/precision.hpp"

namespace iobench::stats {
namespace {

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
}  // namespace iobench::stats
