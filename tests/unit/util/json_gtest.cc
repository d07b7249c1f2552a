// JSON has no NaN or infinity: a figure that has none is written as null, never as a made-up one.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "driver/util/json.hpp"

namespace iobench::util {
namespace {

TEST(JsonNumber, AFiniteNumberIsItselfAndNanOrInfinityIsNull) {
  EXPECT_EQ(number_or_null(0.25).dump(), "0.25");
  EXPECT_TRUE(number_or_null(NAN).is_null());
  EXPECT_TRUE(number_or_null(std::numeric_limits<double>::infinity()).is_null());
  EXPECT_TRUE(number_or_null(-std::numeric_limits<double>::infinity()).is_null());
}

}  // namespace
}  // namespace iobench::util
