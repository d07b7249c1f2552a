// common/splitmix64: the reference sequence, on which gen's bytes and a shuffled plan's order
// depend (the same for a seed on every platform).
#include <gtest/gtest.h>

#include <cstdint>

#include "common/splitmix64.hpp"

namespace iobench {
namespace {

TEST(SplitMix64, GivesTheReferenceSequence) {
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(state), 0x06c45d188009454fULL);
  EXPECT_EQ(state, 3 * 0x9e3779b97f4a7c15ULL);
}

}  // namespace
}  // namespace iobench
