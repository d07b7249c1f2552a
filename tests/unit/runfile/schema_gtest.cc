// The run file's schema: one spelling of every status, column, metric and counter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "driver/runfile/schema.hpp"

namespace iobench::runfile {
namespace {

TEST(Schema, CountersParseFromTheConfigSpellingOnly) {
  EXPECT_EQ(parse_counter("context-switches"), Counter::kContextSwitches);
  EXPECT_EQ(parse_counter("branch-misses"), Counter::kBranchMisses);
  EXPECT_FALSE(parse_counter("context_switches").has_value());  // the column spelling
  EXPECT_FALSE(parse_counter("Syscalls").has_value());
  for (std::size_t i = 0; i < kCounterCount; ++i) {
    const auto c = static_cast<Counter>(i);
    EXPECT_EQ(parse_counter(config_name(c)), c);
    std::string column(config_name(c));
    std::replace(column.begin(), column.end(), '-', '_');
    EXPECT_EQ(column_name(c), column);  // `-` written `_`
    EXPECT_EQ(parse_metric(column_name(c)), metric_of(c));
    EXPECT_TRUE(is_counter(metric_of(c)));
    EXPECT_EQ(counter_of(metric_of(c)), c);
  }
  EXPECT_FALSE(is_hardware(Counter::kTaskClock));
  EXPECT_TRUE(is_hardware(Counter::kCycles));
}

TEST(Schema, MetricsAreTheTimeColumnsThenTheCounters) {
  EXPECT_EQ(parse_metric("elapsed"), Metric::kElapsed);
  EXPECT_EQ(parse_metric("mem"), Metric::kMem);
  EXPECT_FALSE(is_counter(Metric::kMem));
  EXPECT_FALSE(parse_metric("status").has_value());
  EXPECT_EQ(metric_name(metric_of(Counter::kSyscalls)), "syscalls");
}

TEST(Schema, RunColumnsWithoutCountersAreTheStandardOnes) {
  const auto columns = run_columns({});
  EXPECT_EQ(columns.size(), kStandardColumns.size());
  EXPECT_EQ(columns.front(), "test");
  EXPECT_EQ(columns[20], "host");  // where it always was; the disturbance figures came after it
  EXPECT_EQ(columns[22], "steal_s");
  EXPECT_EQ(columns.back(), "block_io_wait_s");
  const auto with = run_columns({Counter::kTaskClock, Counter::kPageFaults});
  ASSERT_EQ(with.size(), kStandardColumns.size() + 3);
  EXPECT_EQ(with[kStandardColumns.size()], "page_faults");
  EXPECT_EQ(with[kStandardColumns.size() + 1], "task_clock");
  EXPECT_EQ(with.back(), "counted_pct");
}

TEST(Schema, StatusWordsMatchTheStatusNames) {
  EXPECT_EQ(to_string(RunStatus::kTimeout), "timeout");
  EXPECT_EQ(kStatusWords[static_cast<std::size_t>(RunStatus::kTimeout)], "timed out");
  EXPECT_EQ(parse_run_status("mismatch"), RunStatus::kMismatch);
}

TEST(Schema, TheCacheStateBoundsAreTheOnesEveryCheckUses) {
  EXPECT_TRUE(cache_state_holds("cold", kColdMaxCachePct));
  EXPECT_FALSE(cache_state_holds("cold", kColdMaxCachePct + 0.1));
  EXPECT_TRUE(cache_state_holds("warm", kWarmMinCachePct));
  EXPECT_FALSE(cache_state_holds("warm", kWarmMinCachePct - 0.1));
  EXPECT_TRUE(cache_state_holds("none", 50));
}

TEST(Schema, ACacheCheckTalliesTheRunsOfItsFirstModeAndTheWorst) {
  CacheCheck cold;
  for (const double pct : {0.0, 62.5, 3.0, 100.0, 7.0}) cold.add("cold", pct);
  cold.add("warm", 0.0);  // another file's mode: not this group's to judge
  EXPECT_EQ(cold.mode, "cold");
  EXPECT_EQ(cold.checked, 5U);
  EXPECT_EQ(cold.off, 3U);
  EXPECT_EQ(cold.worst_pct, 100.0);
  CacheCheck warm;
  for (const double pct : {100.0, 12.0, 94.9, 40.0}) warm.add("warm", pct);
  EXPECT_EQ(warm.off, 3U);
  EXPECT_EQ(warm.worst_pct, 12.0);
  CacheCheck fine;
  fine.add("warm", 100.0);
  EXPECT_EQ(fine.off, 0U);
  EXPECT_TRUE(std::isnan(fine.worst_pct));
}

}  // namespace
}  // namespace iobench::runfile
