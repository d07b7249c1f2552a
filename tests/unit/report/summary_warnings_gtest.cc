// summarize at many groups: a gathered warning names a few groups and counts the rest, while the
// full list stays in warnings_in_full for the run record (docs/reports.md, "Warnings").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/report/summary.hpp"
#include "driver/runfile/meta.hpp"

namespace iobench::report {
namespace {

// `groups` tests of one ok run each: every one has fewer than 3 runs.
runfile::RunSet one_run_each(std::size_t groups) {
  std::string text = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n";
  for (std::size_t g = 0; g < groups; ++g) {
    text += "t" + std::to_string(g) + "\t1\t0.5\t0.5\t100\t5\tin.txt\tpipe\tok\n";
  }
  return runfile::parse_runs({{"many.tsv", text, ""}});
}

const std::string kFewRunsLead =
    "fewer than 3 runs in 5,000 groups, so their medians are not reliable; use more repeats: ";

TEST(SummaryWarnings, AGatheredWarningNamesAFewGroupsAndCountsTheRest) {
  const runfile::RunSet set = one_run_each(5000);
  SummaryOptions options;
  options.groups_named = 5;
  options.all_groups_in = "meta/many.json";
  const Summary s = summarize(set, options);
  ASSERT_EQ(s.warnings.size(), 1U);
  EXPECT_EQ(s.warnings[0], kFewRunsLead +
                               "t0 (in.txt, pipe) (n=1), t1 (in.txt, pipe) (n=1), t2 (in.txt, "
                               "pipe) (n=1), t3 (in.txt, pipe) (n=1), t4 (in.txt, pipe) (n=1) "
                               "… and 4,995 more; all in meta/many.json");
  ASSERT_EQ(s.warnings_in_full.size(), 1U);
  EXPECT_TRUE(s.warnings_in_full[0].starts_with(kFewRunsLead + "t0 (in.txt, pipe) (n=1), "));
  EXPECT_TRUE(s.warnings_in_full[0].ends_with(", t4999 (in.txt, pipe) (n=1)"));
  EXPECT_EQ(s.warnings_in_full[0].find("… and"), std::string::npos);
}

TEST(SummaryWarnings, EveryGroupIsNamedByDefaultAndWhenFewEnough) {
  const runfile::RunSet set = one_run_each(5000);
  const Summary all = summarize(set);
  ASSERT_EQ(all.warnings.size(), 1U);
  EXPECT_EQ(all.warnings, all.warnings_in_full);
  EXPECT_TRUE(all.warnings[0].ends_with(", t4999 (in.txt, pipe) (n=1)"));

  SummaryOptions options;
  options.groups_named = 2;
  const Summary two = summarize(one_run_each(2), options);
  ASSERT_EQ(two.warnings.size(), 1U);
  EXPECT_EQ(two.warnings[0],
            "fewer than 3 runs in 2 groups, so their medians are not reliable; use more repeats: "
            "t0 (in.txt, pipe) (n=1), t1 (in.txt, pipe) (n=1)");
  EXPECT_EQ(two.warnings, two.warnings_in_full);
}

// `run --filter 'other'` of a config whose baseline is 'base' said for each input and sink that
// the baseline "has no runs here (left out by --filter?)" (before that, "has no successful run"):
// the run's meta file names the filter, so it is said once, as what happened.
TEST(SummaryWarnings, ABaselineAFilterLeftOutIsSaidOnceAsLeftOut) {
  const std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n"
      "other\t1\t0.5\t0.5\t100\t5\ta.txt\tpipe\tok\n"
      "other\t1\t0.5\t0.5\t100\t5\tb.txt\tpipe\tok\n";
  SummaryOptions options;
  options.baseline = "base";
  const auto baseline_lines = [&](const std::string& filter) {
    runfile::RunMeta meta;
    meta.options.emplace().filter = filter;
    const Summary s = summarize(runfile::parse_runs({{"f.tsv", text, "", &meta}}), options);
    std::vector<std::string> lines;
    for (const std::string& w : s.warnings) {
      if (w.starts_with("baseline ")) lines.push_back(w);
    }
    return lines;
  };
  EXPECT_EQ(
      baseline_lines("oth|third"),
      std::vector<std::string>{
          "baseline 'base' was left out by --filter 'oth|third'; relative is to the fastest"});
  // No filter, or one the baseline matches (a shard left it out): not said to be the filter's.
  for (const std::string filter : {"", "base|other"}) {
    EXPECT_EQ(baseline_lines(filter),
              (std::vector<std::string>{"baseline 'base' has no runs here (left out by --filter?) "
                                        "for a.txt, pipe; relative is to the fastest there",
                                        "baseline 'base' has no runs here (left out by --filter?) "
                                        "for b.txt, pipe; relative is to the fastest there"}))
        << filter;
  }
}

}  // namespace
}  // namespace iobench::report
