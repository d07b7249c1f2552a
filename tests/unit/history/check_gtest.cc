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
  const CheckReport report = h.check(History::no_drift());
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
  const CellCheck& unverified = History::cell(report, "unverified");
  EXPECT_EQ(unverified.verdict, CellVerdict::kUnverified);
  EXPECT_EQ(unverified.gate, Gate::kNotJudged);  // nothing compared: never green (issue 47)
  EXPECT_EQ(describe_cell(unverified),
            "unverified 03aabbcc@0003ffff unverified (in.txt, pipe): its output is not verified "
            "(\"verify\": false, or bench --no-verify), so its rows never count; not judged "
            "(exit 4; --allow-unverified accepts it)");
}

TEST(HistoryCheck, AnAaPairIsNoRegression) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("aaaa1111");
  h.add_all(0.1);
  const CheckReport report = h.check(History::no_drift());
  EXPECT_EQ(report.regressions, 0u);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  // Without a spread between sessions, stated or learnt (two sessions teach none), no session
  // can rule out a slowdown: steady by its rows, not judged (issue 46, 47).
  const CheckReport unknown = h.check();
  EXPECT_EQ(History::cell(unknown, "slow").verdict, CellVerdict::kTooFewSessions);
  EXPECT_EQ(History::cell(unknown, "slow").rows_verdict, CellVerdict::kSteady);
  EXPECT_EQ(unknown.exit_status, kExitNotJudged);
  EXPECT_NE(describe_cell(History::cell(unknown, "slow"))
                .find("; steady by its rows, but 0 earlier sessions cannot say how far "
                      "sessions drift (3 in one level needed, or --session-spread PCT); not "
                      "judged (exit 4)"),
            std::string::npos)
      << describe_cell(History::cell(unknown, "slow"));
}

TEST(HistoryCheck, AnAcknowledgedChangeNoLongerFailsAndStartsTheNextBaseline) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.12);
  const CheckReport before = h.check(History::no_drift());
  const std::string id = History::cell(before, "slow").change_id;
  h.data.acks.push_back({id, "", "", "the new format costs 20 %", "me", "2026-02-01T00:00:00Z"});
  const CheckReport acked = h.check(History::no_drift());
  EXPECT_EQ(acked.regressions, 0u);
  const CellCheck& slow = History::cell(acked, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kAcknowledged);
  EXPECT_NE(describe_cell(slow).find("the new format costs 20 %"), std::string::npos);
  h.add_run("cccc3333");  // the next run, at the new level: held to the acknowledged run only
  h.add_all(0.12);
  const CheckReport later = h.check(History::no_drift());
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
  const CheckReport report = h.check(History::no_drift());
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kSteady);
  EXPECT_EQ(slow.baseline_runs, 1u);
}

TEST(HistoryCheck, RowsThatAreNotOkNeverCountOnEitherSide) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("slow", 0.5, runfile::RunStatus::kMismatch);  // a mismatched level is never a baseline
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1);
  h.add_rows("slow", 0.9, runfile::RunStatus::kFailed);
  const CheckReport report = h.check(History::no_drift());
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
  CheckOptions options = History::no_drift();
  // Against main's 0.1 s and the branch's 0.2 s pooled: no significant change, and an interval
  // far too wide to rule out a slowdown of 5 %.
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kUnderpowered);
  options.base = "main";
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kRegression);
  options.base = "aaaa";
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kRegression);
  options.base = "bbbb2222";  // the newest run's own commit: nothing before it to judge against
  EXPECT_EQ(History::cell(h.check(options), "slow").verdict, CellVerdict::kNoBaseline);
}

// --base names something in the store, or check is a usage error naming what it could be
// (issue 30: an unknown or too short --base said "no baseline", exit 0).
TEST(HistoryCheck, ABaseThatNamesNoRunOrSeveralCommitsIsAUsageError) {
  History h;
  h.add_run("1571aaaa", "main");
  h.add_all(0.1);
  h.add_run("1572bbbb", "feature");
  h.add_all(0.1);
  const auto message = [&h](const std::string& base) {
    CheckOptions options;
    options.base = base;
    try {
      h.check(options);
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), kExitUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("ffff0000"),
            "history check --base ffff0000: no run in the store has that commit or branch "
            "(branches: feature, main; commits: 1571aaaa, 1572bbbb)");
  EXPECT_EQ(message("157"),
            "history check --base 157: too short to name a commit (4 or more digits) and no "
            "branch has that name; it could be 1571aaaa, 1572bbbb");
  h.add_run("1571cccc", "main");
  h.add_all(0.1);
  EXPECT_EQ(message("1571"),
            "history check --base 1571: ambiguous, 2 commits start with it: 1571aaaa, 1571cccc");
  EXPECT_EQ(message("1572"), "no error");
  EXPECT_EQ(message("main"), "no error");
}

// Two runs of one series, "slow": 100 ms, then 150 ms; the why's tests set its other figures.
// Every significant move counts, and sessions are taken not to drift (one baseline session).
CheckOptions any_move() {
  CheckOptions options;
  options.min_effects = {parse_min_effect("0")};
  options.session_spread_pct = 0;
  return options;
}

History slow_from_100_to_150_ms() {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.15);
  return h;
}

// issue 30: "system 0 µs -> 1.23 ms: the work changed" for a longer sleep. A CPU time that moved
// by less than a tick is no explanation.
TEST(HistoryWhy, ACpuTimeThatMovedByLessThanItsResolutionIsNotNamed) {
  History h = slow_from_100_to_150_ms();
  for (auto& s : h.data.samples) s.system_s = s.run_id == 1 ? 0 : 0.00123;
  for (auto& s : h.data.samples) s.elapsed_s = s.run_id == 1 ? 0.1 : 0.101;  // 1 ms slower
  for (std::size_t i = 0; i < h.data.samples.size(); ++i)
    h.data.samples[i].elapsed_s += 1e-4 * static_cast<double>(i % 5);
  const CellCheck slow = History::cell(h.check(any_move()), "slow");
  const std::string why = format_explanation(slow.why);
  EXPECT_EQ(why.find("system 0"), std::string::npos) << why;
  EXPECT_NE(why.find("only elapsed moved"), std::string::npos) << why;
  // The same move over a resolution below it is named: the rule, not the figure, left it out.
  const std::vector<const StoredSample*> before =
      counted_rows({&slow.timeline->points[0]}, *slow.timeline->series);
  const std::vector<const StoredSample*> after =
      counted_rows({&slow.timeline->points[1]}, *slow.timeline->series);
  Resolution fine;
  fine.cpu_time_s = 0.0001;
  const std::string named = format_explanation(explain_change(before, after, 0.05, fine));
  EXPECT_NE(named.find("system 0 µs -> 1.23 ms"), std::string::npos) << named;
  EXPECT_EQ(resolution_of(*slow.timeline->points[0].run).cpu_time_s, 0.010);
}

TEST(HistoryWhy, CountersThatMovedSayTheWorkChanged) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.12);
  for (auto& s : h.data.samples) {
    if (s.run_id == 2) {
      s.counters[index(runfile::Counter::kSyscalls)] = 90000;
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

// Issue 47: "involuntary switches 2 -> 0.5 (×0.25): the work changed" for a longer sleep. Being
// switched out while runnable is the machine's doing: named, but no change of the work.
TEST(HistoryWhy, InvoluntarySwitchesAloneAreTheMachineNotTheWork) {
  History h = slow_from_100_to_150_ms();
  for (auto& s : h.data.samples) s.nivcsw = s.run_id == 1 ? 2 : 0;
  const CellCheck slow = History::cell(h.check(any_move()), "slow");
  const std::string why = format_explanation(slow.why);
  EXPECT_NE(why.find("involuntary switches 2 -> 0"), std::string::npos) << why;
  EXPECT_NE(why.find(": only elapsed moved"), std::string::npos) << why;
  EXPECT_EQ(why.find("the work changed"), std::string::npos) << why;
}

}  // namespace
}  // namespace iobench::history
