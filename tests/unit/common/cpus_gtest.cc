// common/cpus: the one list of CPUs this process may use (its affinity mask), and kernel CPU lists
// read and written.
#include <gtest/gtest.h>
#include <sched.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/cpus.hpp"

namespace iobench {
namespace {

TEST(Cpus, ParsesKernelCpuLists) {
  EXPECT_EQ(parse_cpu_list("0-3,6"), (std::vector<int>{0, 1, 2, 3, 6}));
  EXPECT_EQ(parse_cpu_list("0"), (std::vector<int>{0}));
  EXPECT_TRUE(parse_cpu_list("zero").empty());
}

TEST(Cpus, FormatsWhatItParses) {
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(format_cpu_list({0, 1, 5, 7, 8}), "0-1,5,7-8");
  EXPECT_EQ(format_cpu_list({4}), "4");
  EXPECT_EQ(format_cpu_list({}), "");
  for (const std::string text : {"0-3,6", "1,3,5", "0-63", "2"}) {
    EXPECT_EQ(format_cpu_list(parse_cpu_list(text)), text);
  }
}

TEST(Cpus, TheUsableCpusAreThoseOfTheAffinityMask) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(::sched_getaffinity(0, sizeof mask, &mask), 0);
  const std::vector<int> usable = usable_cpu_list();
  EXPECT_EQ(usable, cpu_list(mask));
  EXPECT_TRUE(std::is_sorted(usable.begin(), usable.end()));
  EXPECT_EQ(usable_cpus(), usable.size());
  EXPECT_GE(usable_cpus(), 1U);
}

TEST(Cpus, ANarrowedMaskNarrowsThem) {
  cpu_set_t saved;
  CPU_ZERO(&saved);
  ASSERT_EQ(::sched_getaffinity(0, sizeof saved, &saved), 0);
  const std::vector<int> all = cpu_list(saved);
  if (all.size() < 2) GTEST_SKIP() << "one CPU here: nothing to narrow";
  cpu_set_t last_only;
  CPU_ZERO(&last_only);
  CPU_SET(static_cast<std::size_t>(all.back()), &last_only);
  ASSERT_EQ(::sched_setaffinity(0, sizeof last_only, &last_only), 0);
  const std::vector<int> narrowed = usable_cpu_list();
  ASSERT_EQ(::sched_setaffinity(0, sizeof saved, &saved), 0);
  EXPECT_EQ(narrowed, std::vector<int>{all.back()}) << "the online CPUs are not the usable ones";
}

}  // namespace
}  // namespace iobench
