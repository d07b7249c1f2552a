// history check on histories built in memory: regressions named, A/A quiet, acknowledgements,
// like with like, only verified rows, --base and --min-effect, and the why.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "driver/history/check.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

TEST(HistoryCheck, ASecondCommitTwentyPercentSlowerOnOneCellIsARegressionOfThatCellOnly) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.12);
  const CheckReport report = h.check();
  EXPECT_EQ(report.regressions, 1u);
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_NEAR(slow.comparison.ratio, 1.2, 0.01);
  EXPECT_EQ(slow.baseline_runs, 2u);
  EXPECT_EQ(slow.change_id, "01aabbcc@0003ffff");
  const std::string line = describe_cell(slow);
  EXPECT_EQ(line.rfind("regression 01aabbcc@0003ffff slow (in.txt, pipe): elapsed", 0), 0u) << line;
  EXPECT_NE(line.find("only elapsed moved"), std::string::npos) << line;
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kSteady);
  EXPECT_EQ(History::cell(report, "unverified").verdict, CellVerdict::kNothingCounts);
}

TEST(HistoryCheck, AnAaPairIsNoRegression) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("aaaa1111");
  h.add_all(0.1);
  const CheckReport report = h.check();
  EXPECT_EQ(report.regressions, 0u);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
}

TEST(HistoryCheck, AnAcknowledgedChangeNoLongerFailsAndStartsTheNextBaseline) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.12);
  const CheckReport before = h.check();
  const std::string id = History::cell(before, "slow").change_id;
  h.data.acks.push_back({id, "", "", "the new format costs 20 %", "me", "2026-02-01T00:00:00Z"});
  const CheckReport acked = h.check();
  EXPECT_EQ(acked.regressions, 0u);
  const CellCheck& slow = History::cell(acked, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kAcknowledged);
  EXPECT_NE(describe_cell(slow).find("the new format costs 20 %"), std::string::npos);
  h.add_run("cccc3333");  // the next run, at the new level: held to the acknowledged run only
  h.add_all(0.12);
  const CheckReport later = h.check();
  const CellCheck& next = History::cell(later, "slow");
  EXPECT_EQ(next.verdict, CellVerdict::kSteady);
  EXPECT_EQ(next.baseline_runs, 1u);
}

TEST(HistoryCheck, ABusyMachineCacheOrKernelIsConditionsChangedNotARegression) {
  for (int what = 0; what < 3; ++what) {
    History h;
    h.add_run("aaaa1111");
    h.add_all(0.1);
    StoredRun& run = h.add_run("bbbb2222");
    if (what == 0) run.busy_cpus_start = 1.5;
    if (what == 2) run.kernel = "Linux 6.1.0-20-amd64";
    h.add_all(0.12);
    if (what == 1) {
      for (auto& s : h.data.samples)
        if (s.run_id == run.run_id) s.cache_pct = 40;
    }
    const CheckReport report = h.check();
    EXPECT_EQ(report.regressions, 0u) << what;
    const CellCheck& slow = History::cell(report, "slow");
    EXPECT_EQ(slow.verdict, CellVerdict::kConditionsChanged) << what;
    const char* expected[] = {"a busy machine (1.50 CPUs", "cache no longer warm (cache_pct 40.0)",
                              "another kernel (Linux 6.1.0-18-amd64 -> Linux 6.1.0-20-amd64)"};
    EXPECT_NE(describe_cell(slow).find(expected[what]), std::string::npos) << describe_cell(slow);
  }
}

TEST(HistoryCheck, ABaselineIsOnlyOfRunsWithTheSameConditions) {
  History h;
  h.add_run("aaaa1111").busy_cpus_start = 1.5;  // busy, and slow for it: not the baseline
  h.add_all(0.2);
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.1);
  const CheckReport report = h.check();
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kSteady);
  EXPECT_EQ(slow.baseline_runs, 1u);
}

TEST(HistoryCheck, RowsThatAreNotOkNeverCountOnEitherSide) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("slow", 0.5, RunStatus::kMismatch);  // a mismatched level is never a baseline
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1);
  h.add_rows("slow", 0.9, RunStatus::kFailed);
  const CheckReport report = h.check();
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kSteady);
  EXPECT_EQ(slow.comparison.base_n, 5u);
  EXPECT_EQ(slow.comparison.new_n, 5u);
  EXPECT_EQ(slow.excluded, "5 failed");
}

TEST(HistoryCheck, BaseTakesTheRunsOfACommitOrBranch) {
  History h;
  h.add_run("aaaa1111", "main");
  h.add_all(0.1);
  h.add_run("ffff9999", "feature");
  h.add_all(0.2);
  h.add_run("bbbb2222", "feature");
  h.add_all(0.2);
  CheckOptions options;
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kSteady);
  options.base = "main";
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kRegression);
  options.base = "aaaa";
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kRegression);
  options.base = "nothing";
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kNoBaseline);
}

TEST(HistoryCheck, MinEffectByRegexRaisesTheBarForMatchingTestsOnly) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1, 0.2);
  h.add_run("bbbb2222");
  h.add_all(0.12, 0.24);
  CheckOptions options;
  options.min_effects.push_back(parse_min_effect("sl.*=25"));
  const CheckReport report = h.check(options);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kRegression);
  options.min_effects = {parse_min_effect("30")};
  EXPECT_EQ(h.check(options).regressions, 0u);
}

TEST(HistoryCheck, MinEffectSpellingsThatAreNotOneAreErrors) {
  EXPECT_EQ(parse_min_effect("7.5").pct, 7.5);
  EXPECT_FALSE(parse_min_effect("7.5").test.has_value());
  EXPECT_THROW(parse_min_effect("five"), Error);
  EXPECT_THROW(parse_min_effect("x=-1"), Error);
  EXPECT_THROW(parse_min_effect("[=5"), Error);
  EXPECT_THROW(parse_min_effect("5%"), Error);
}

TEST(HistoryWhy, CountersThatMovedSayTheWorkChanged) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.12);
  for (auto& s : h.data.samples) {
    if (s.run_id == 2) {
      s.counters[index(Counter::kSyscalls)] = 90000;
      s.system_s = 0.06;
    }
  }
  const CheckReport report = h.check();
  const CellCheck& slow = History::cell(report, "slow");
  const std::string why = format_explanation(slow.why);
  EXPECT_NE(why.find("system 20.00 ms -> 60.00 ms (×3.00)"), std::string::npos) << why;
  EXPECT_NE(why.find("syscalls 302 -> 90000 (×298)"), std::string::npos) << why;
  EXPECT_NE(why.find(": the work changed"), std::string::npos) << why;
}

}  // namespace
}  // namespace iobench::history
