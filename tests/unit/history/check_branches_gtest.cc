// The baseline along a series' own line (docs/history.md, "The baseline"): its branch, runs filed
// under none, and the default branch or --base; another feature branch's runs never count, and a
// change is never blamed on another branch's commits.
#include <gtest/gtest.h>

#include "tests/unit/history/history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

struct At {
  const char* commit;
  const char* branch;
  double slow_s;
};
History runs(std::initializer_list<At> runs) {
  History h;
  for (const At& at : runs) {
    h.add_run(at.commit, at.branch);
    h.add_all(at.slow_s);
  }
  return h;
}

// main: two runs at 0.1 s; feature pr-a: two at 0.13 s; pr-c: one at 0.13 s.
History main_then_two_branches() {
  return runs({{"aaaa1111", "main", 0.1},
               {"bbbb2222", "main", 0.1},
               {"eeee5555", "pr-a", 0.13},
               {"ffff6666", "pr-a", 0.13},
               {"cccc3333", "pr-c", 0.13}});
}

TEST(HistoryBranches, TheDefaultBaselineIsTheDefaultBranchNeverAnotherFeatureBranch) {
  History h = main_then_two_branches();
  const CheckReport report = h.check(History::no_drift());
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_EQ(slow.baseline_runs, 2u);  // main's two, not pr-a's
  EXPECT_EQ(format_range(slow.commits), "bbbb2222..cccc3333");
  EXPECT_EQ(slow.came_in->run->labels.commit, "cccc3333");
  EXPECT_EQ(report.default_branch, "main");
}

TEST(HistoryBranches, TheDefaultBranchIsTheOneGivenElseMainOrMaster) {
  History h = main_then_two_branches();
  CheckOptions options = History::no_drift();
  options.default_branch = "pr-a";  // as GITHUB_BASE_REF would say
  const CheckReport report = h.check(options);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  EXPECT_EQ(report.default_branch, "pr-a");

  History other = runs({{"aaaa1111", "master", 0.1}, {"cccc3333", "pr-c", 0.13}});
  EXPECT_EQ(other.check(History::no_drift()).default_branch, "master");
}

TEST(HistoryBranches, WithoutADefaultBranchAFeatureBranchHasOnlyItsOwnRuns) {
  History h = runs({{"eeee5555", "pr-a", 0.1}, {"cccc3333", "pr-c", 0.13}});
  EXPECT_EQ(History::cell(h.check(History::no_drift()), "slow").verdict, CellVerdict::kNoBaseline);
}

TEST(HistoryBranches, RunsFiledUnderNoBranchStayInEveryLine) {
  History h;
  h.add_run("aaaa1111", "");
  h.data.runs.back().labels.branch.reset();
  h.add_all(0.1);
  h.add_run("cccc3333", "pr-c");
  h.add_all(0.13);
  const CheckReport report = h.check(History::no_drift());
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_EQ(format_range(slow.commits), "aaaa1111..cccc3333");
}

// --base main on a pull request's second commit: the slowdown came in at its first, and another
// branch's slow run between them is no part of it.
TEST(HistoryBranches, ABaseRangeNamesThePullRequestsOwnCommits) {
  History h = runs({{"aaaa1111", "main", 0.1},
                    {"bbbb2222", "main", 0.1},
                    {"9999eeee", "pr-x", 0.13},
                    {"cccc3333", "pr", 0.13},
                    {"dddd4444", "pr", 0.13}});
  CheckOptions options = History::no_drift();
  options.base = "main";
  const CheckReport report = h.check(options);
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_EQ(format_range(slow.commits), "bbbb2222..cccc3333");
  EXPECT_EQ(slow.timeline->points.size(), 5u);  // the cell names the whole series
}

}  // namespace
}  // namespace iobench::history
