// history check as a merge gate (docs/history.md, "Exit statuses"): exit 0 only when every series
// was judged and none regressed, 4 for each case that could not be judged unless its option
// accepts it, 1 when a regression comes with them; missing series; commit ranges.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "driver/history/check.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

TEST(HistoryGate, ExitIsZeroOnlyWhenEverySeriesWasJudgedAndNoneRegressed) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_all(0.1);
  // Issue 47: unverified was said and passed, "every series judged" with nothing compared.
  EXPECT_EQ(h.check(History::no_drift()).exit_status, kExitNotJudged);
  EXPECT_EQ(History::cell(h.check(History::no_drift()), "unverified").gate, Gate::kNotJudged);
  CheckOptions accepted = History::no_drift();
  accepted.allow_unverified = true;
  EXPECT_EQ(h.check(accepted).exit_status, kExitOk);
  EXPECT_EQ(History::cell(h.check(accepted), "unverified").accepted_by, "--allow-unverified");
  h.add_run("cccc3333");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2, runfile::RunStatus::kFailed);  // nothing of steady counts
  h.add_rows("unverified", 0.3);
  CheckReport report = h.check(History::no_drift());
  EXPECT_EQ(History::cell(report, "steady").gate, Gate::kNotJudged);
  EXPECT_EQ(report.not_judged, 2u);  // steady and unverified
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  EXPECT_EQ(kExitNotJudged, 4);
}

TEST(HistoryGate, EveryRowDisturbedIsNotJudgedAndNoOptionAcceptsIt) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1, runfile::RunStatus::kDisturbed);
  CheckOptions options;
  options.allow_new_series = options.allow_missing_series = options.allow_conditions_changed = true;
  const CheckReport report = h.check(options);
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kNothingCounts);
  EXPECT_EQ(slow.gate, Gate::kNotJudged);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  EXPECT_EQ(describe_cell(slow),
            "nothing counts 01aabbcc@0002ffff slow (in.txt, pipe): the newest run has no ok, "
            "verified row (5 disturbed); not judged (exit 4)");
}

TEST(HistoryGate, ANewSeriesIsNotJudgedUnlessAllowed) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  CheckOptions options = History::no_drift();
  CheckReport report = h.check(options);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kNoBaseline);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  options.allow_new_series = true;
  report = h.check(options);
  EXPECT_EQ(History::cell(report, "steady").gate, Gate::kAccepted);
  EXPECT_EQ(History::cell(report, "steady").accepted_by, "--allow-new-series");
  EXPECT_EQ(report.exit_status, kExitOk);
}

TEST(HistoryGate, ASeriesGoneFromTheNewestRunIsMissingUnlessAllowed) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1);
  CheckOptions options = History::no_drift();
  CheckReport report = h.check(options);
  const CellCheck& gone = History::cell(report, "steady");
  EXPECT_EQ(gone.verdict, CellVerdict::kMissing);
  EXPECT_EQ(gone.gate, Gate::kNotJudged);
  EXPECT_EQ(describe_cell(gone),
            "missing 02aabbcc@0002ffff steady (in.txt, pipe): in the runs before (the last at "
            "aaaa1111), not in the newest run (bbbb2222); not judged (exit 4; "
            "--allow-missing-series accepts it)");
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  options.allow_missing_series = true;
  EXPECT_EQ(h.check(options).exit_status, kExitOk);
  // Another branch's runs, or another config's, are not what the newest run is held to.
  History other;
  other.add_run("aaaa1111", "feature");
  other.add_rows("steady", 0.2);
  other.add_run("bbbb2222", "main");
  other.add_rows("slow", 0.1);
  other.add_run("bbbb2222", "main");
  other.add_rows("slow", 0.1);
  EXPECT_EQ(History::cell(other.check(), "steady").verdict, CellVerdict::kNoBaseline);
}

TEST(HistoryGate, WithABaseASeriesIsMissingWhenTheBasesNewestCommitHasIt) {
  History h;
  h.add_run("aaaa1111", "main");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);  // main dropped steady after this commit
  h.add_run("bbbb2222", "main");
  h.add_rows("slow", 0.1);
  h.add_run("cccc3333", "feature");
  h.add_rows("slow", 0.1);
  CheckOptions options;
  options.base = "main";
  EXPECT_NE(History::cell(h.check(options), "steady").verdict, CellVerdict::kMissing);
  options.base = "aaaa1111";  // a base that has it
  EXPECT_EQ(History::cell(h.check(options), "steady").verdict, CellVerdict::kMissing);
}

TEST(HistoryGate, AnotherHostClassUnderTheSameHostNameIsNeverMissing) {
  History h;
  h.data.series[1].key.host_class = "Other CPU x 8";  // steady: another machine's series
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.1);
  const CheckReport report = h.check(History::no_drift());
  // Its last run (aaaa1111) is not of the newest commit: not judged, it passes.
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kOtherMachine);
  EXPECT_EQ(report.exit_status, kExitOk);
}

// History whose "slow" was measured on a machine of 2 CPUs at aaaa1111 (twice) and bbbb2222 (a
// regression), and whose "slow-now" is the same test on the machine of 4 CPUs it became.
History machine_changed() {
  History h;
  h.data.series[0].key.host_class = "CPU | 2 CPUs";
  StoredSeries now = h.data.series[0];
  now.series_id = 4;
  now.series_hash = "04aabbccddeeff00";
  now.key.test = "slow-now";
  now.key.host_class = "CPU | 4 CPUs";
  h.data.series.push_back(now);
  for (int i = 0; i < 2; ++i) {
    h.add_run("aaaa1111").host = "x";
    h.add_rows("slow", 0.1);
  }
  h.add_run("bbbb2222").host = "x";
  h.add_rows("slow", 0.13);
  return h;
}

// Issue 47: after the machine changed, the old class's last verdict (a regression at bbbb2222)
// kept the gate at exit 1, though the newest run (cccc3333) has no run of that class.
TEST(HistoryGate, AnotherHostClassWithoutARunOfTheNewestCommitIsNotJudged) {
  History h = machine_changed();
  EXPECT_EQ(h.check(History::no_drift()).exit_status, kExitRunFailed);  // before it changed
  h.add_run("cccc3333").host = "x";
  h.add_rows("slow-now", 0.1);
  CheckOptions options = History::no_drift();
  const CheckReport report = h.check(options);
  const CellCheck& before = History::cell(report, "slow");
  EXPECT_EQ(before.verdict, CellVerdict::kOtherMachine);
  EXPECT_EQ(before.gate, Gate::kPass);
  EXPECT_EQ(describe_cell(before).rfind("other machine ", 0), 0U) << describe_cell(before);
  EXPECT_NE(describe_cell(before).find("has no run of cccc3333"), std::string::npos);
  EXPECT_EQ(History::cell(report, "slow-now").verdict, CellVerdict::kNoBaseline);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
  options.allow_new_series = true;
  EXPECT_EQ(h.check(options).exit_status, kExitOk);
}

// Machines that each measured the newest commit (a CI matrix) are each judged at it.
TEST(HistoryGate, AnotherHostClassWithARunOfTheNewestCommitIsJudged) {
  History h = machine_changed();
  h.add_run("bbbb2222").host = "y";
  h.add_rows("slow-now", 0.1);
  const CheckReport report = h.check(History::no_drift());
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kRegression);
  EXPECT_EQ(report.exit_status, kExitRunFailed);
}

TEST(HistoryGate, ShardsOfTheNewestCommitAddedOneByOneAreOneRun) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_rows("steady", 0.2);
  h.add_run("bbbb2222");  // shard 1 of 2
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222");  // shard 2 of 2
  h.add_rows("steady", 0.2);
  const CheckReport report = h.check(History::no_drift());
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kSteady);
}

TEST(HistoryGate, ARegressionWinsOverASeriesNotJudged) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("aaaa1111");
  h.add_all(0.1);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.13);                                // a regression
  h.add_rows("steady", 0.2, runfile::RunStatus::kFailed);  // not judged
  h.add_rows("unverified", 0.3);                           // not judged
  const CheckReport report = h.check(History::no_drift());
  EXPECT_EQ(report.regressions, 1u);
  EXPECT_EQ(report.not_judged, 2u);
  EXPECT_EQ(report.exit_status, kExitRunFailed);
}

TEST(HistoryGate, ConditionsChangedIsNotJudgedUnlessAllowed) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222").busy_cpus_start = 1.5;
  h.add_rows("slow", 0.15);
  CheckOptions options;
  EXPECT_EQ(h.check(options).exit_status, kExitNotJudged);
  options.allow_conditions_changed = true;
  EXPECT_EQ(h.check(options).exit_status, kExitOk);
}

TEST(HistoryGate, AnEmptyStoreJudgedNothing) {
  History h;
  EXPECT_EQ(h.check().exit_status, kExitNotJudged);
}

TEST(HistoryGate, TheCommitRangeIsWhereTheChangeCameIn) {
  History h;
  for (const char* commit : {"c1", "c2", "c3"}) {
    h.add_run(commit);
    h.add_rows("slow", 0.1);
  }
  h.add_run("c4");  // the change comes in here
  h.add_rows("slow", 0.13);
  h.add_run("c5");
  h.add_rows("slow", 0.13);
  const CellCheck slow = History::cell(h.check(History::no_drift()), "slow");
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression);
  EXPECT_EQ(format_range(slow.commits), "c3..c4");
  EXPECT_NE(describe_cell(slow).find(", change in c3..c4"), std::string::npos);
}

TEST(HistoryCheck, MinEffectByRegexRaisesTheBarForMatchingTestsOnly) {
  History h;
  h.add_run("aaaa1111");
  h.add_all(0.1, 0.2);
  h.add_run("bbbb2222");
  h.add_all(0.12, 0.24);
  CheckOptions options = History::no_drift();
  options.min_effects.push_back(parse_min_effect("sl.*=25"));
  const CheckReport report = h.check(options);
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kSteady);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kRegression);
  options.min_effects = {parse_min_effect("30")};
  EXPECT_EQ(h.check(options).regressions, 0u);
}

// One measure of a benchmark has a threshold of its own (issue 47: the regex saw the test name
// only, so gbench's cpu_time or a BMF file's latency could not be told from its other measures).
TEST(HistoryCheck, MinEffectByRegexCanNameOneMeasureOfATest) {
  SeriesKey real;
  real.test = "BM_Copy";
  real.tool = "gbench";
  real.sink = "real_time";
  SeriesKey cpu = real;
  cpu.sink = "cpu_time";
  const std::vector<MinEffect> effects = {parse_min_effect("10"),
                                          parse_min_effect("BM_Copy cpu_time=30")};
  EXPECT_EQ(min_effect_for(real, effects), 10);
  EXPECT_EQ(min_effect_for(cpu, effects), 30);
  EXPECT_EQ(min_effect_for(cpu, {parse_min_effect("BM_.*=20")}), 20);  // the test alone, as before
  EXPECT_EQ(min_effect_for(cpu, {parse_min_effect(".* real_time=20")}), kDefaultMinEffectPct);
}

// A BMF or aggregate-only series has one value a run (a summary): against the default 20 runs no
// U test of the newest value can reach p < 0.05, so 46 commits and a 2x slowdown gave "too few
// runs" (issue 47). Its default window is 40 runs.
TEST(HistoryCheck, ASeriesOfSummariesIsJudgedAgainstEnoughRunsToFindAChange) {
  History h;
  for (int commit = 1; commit <= 46; ++commit) {
    h.add_run(fmt::format("c{:02d}", commit));
    const double level = commit == 46 ? 2.0 : 1.0 + 0.001 * (commit % 7);
    h.add_values("slow", {level});
    h.data.samples.back().summary_n = 100;
  }
  const CheckReport report = h.check();
  const CellCheck& slow = History::cell(report, "slow");
  EXPECT_EQ(slow.baseline_runs, kSummaryBaselineRuns);
  EXPECT_EQ(slow.verdict, CellVerdict::kRegression) << describe_cell(slow);
  EXPECT_EQ(report.exit_status, kExitRunFailed);
}

TEST(HistoryCheck, MinEffectSpellingsThatAreNotOneAreErrors) {
  EXPECT_EQ(parse_min_effect("7.5").pct, 7.5);
  EXPECT_FALSE(parse_min_effect("7.5").test.has_value());
  EXPECT_THROW(parse_min_effect("five"), Error);
  EXPECT_THROW(parse_min_effect("x=-1"), Error);
  EXPECT_THROW(parse_min_effect("[=5"), Error);
  EXPECT_THROW(parse_min_effect("5%"), Error);
}

}  // namespace
}  // namespace iobench::history
