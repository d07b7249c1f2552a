// summarize: the warnings about the state a row claims, and null sinks said as such.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {
namespace {

const std::string kSummaryHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\tcache_pct\n";

std::string row(const std::string& test, const std::string& sink, const std::string& cache_pct) {
  return test + "\t1\t0.5\t0.5\t100\t5\tin.txt\t" + sink + "\tok\t" + cache_pct + "\n";
}

std::string timed(const std::string& test, const std::string& elapsed_s) {
  return test + "\t" + elapsed_s + "\t0.5\t0.5\t100\t5\tin.txt\tpipe\tok\t\n";
}

// The interval the precision target stops on, exported so that two tests can be called
// resolved (non-overlapping) from the summary alone: median 3 of 1..5, s = sqrt(2.5),
// t(0.975, 4) = 2.776445, so the half-width is 2.776445 * sqrt(pi/2) * sqrt(2.5) / sqrt(5).
TEST(Summary, ElapsedIntervalIsThePrecisionTargetsInterval) {
  const auto set =
      runfile::parse_runs({{"ci.tsv",
                            kSummaryHeader + timed("A", "1") + timed("A", "2") + timed("A", "3") +
                                timed("A", "4") + timed("A", "5") + timed("B", "7"),
                            "ci"}});
  const Summary s = summarize(set);
  ASSERT_EQ(s.groups.size(), 2u);
  const double half = 2.776445 * 1.2533141373155 * std::sqrt(2.5) / std::sqrt(5.0);
  EXPECT_DOUBLE_EQ(s.groups[0].elapsed_ci95.median, 3);
  EXPECT_NEAR(s.groups[0].elapsed_ci95.half_width, half, 1e-6);
  EXPECT_TRUE(std::isnan(s.groups[1].elapsed_ci95.half_width));  // one run: no interval

  std::ostringstream tsv;
  report::write_summary(s, report::Format::kTsv, tsv);
  std::istringstream lines(tsv.str());
  std::string header;
  std::string a;
  std::string b;
  std::getline(lines, header);
  std::getline(lines, a);
  std::getline(lines, b);
  EXPECT_NE(header.find("\toutliers\telapsed_ci95_low\telapsed_ci95_high"), std::string::npos)
      << header;
  EXPECT_NE(a.find("\t0.53944\t5.46056"), std::string::npos) << a;  // 3 -/+ half, 6 decimals
  EXPECT_EQ(b.substr(b.size() - 2), "\t\t");                        // empty, not 0, for one run
}

TEST(Summary, WarnsPerTestWhenColdRunsWereCached) {
  const auto set = runfile::parse_runs(
      {{"cold.tsv",
        kSummaryHeader + row("A", "pipe", "0.0") + row("A", "pipe", "62.5") +
            row("A", "pipe", "3.0") + row("B", "pipe", "0.0") + row("B", "pipe", "1.0"),
        "cold"}});
  const Summary s = summarize(set);
  ASSERT_EQ(s.warnings.size(), 2u);  // A's cache, and fewer than 3 runs for B
  EXPECT_EQ(s.warnings[0],
            "A (in.txt, pipe): cache cold, but 1 of 3 runs started with more of the input in the "
            "page cache (as much as 62.5%; a cold run needs at most 5%): their times are not "
            "cold-cache times (an input on tmpfs, or eviction not allowed without root?)");
}

TEST(Summary, WarnsWhenWarmRunsWereNotCached) {
  const auto set = runfile::parse_runs({{"warm.tsv",
                                         kSummaryHeader + row("A", "pipe", "100.0") +
                                             row("A", "pipe", "12.0") + row("A", "pipe", "94.9"),
                                         "warm"}});
  const Summary s = summarize(set);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0],
            "A (in.txt, pipe): cache warm, but 2 of 3 runs started with less of the input in the "
            "page cache (as much as 12.0%; a warm run needs at least 95%): their times are not "
            "warm-cache times (an input on tmpfs, or eviction not allowed without root?)");
}

TEST(Summary, NoCacheWarningWithoutAMode) {
  const auto set = runfile::parse_runs({{"x.tsv",
                                         kSummaryHeader + row("A", "pipe", "50.0") +
                                             row("A", "pipe", "50.0") + row("A", "pipe", "50.0"),
                                         ""}});
  EXPECT_TRUE(summarize(set).warnings.empty());
}

TEST(Summary, NullSinkGroupsAreMarkedAsVerifiedThroughThePipeRun) {
  const auto set = runfile::parse_runs(
      {{"null.tsv",
        kSummaryHeader + row("A", "null", "") + row("A", "null", "") + row("A", "null", "") +
            row("A", "pipe", "") + row("A", "pipe", "") + row("A", "pipe", ""),
        ""}});
  const Summary s = summarize(set);
  ASSERT_EQ(s.groups.size(), 2u);
  EXPECT_TRUE(s.groups[0].verified_through_pipe_run);
  EXPECT_FALSE(s.groups[1].verified_through_pipe_run);
  std::ostringstream pretty;
  report::write_summary(s, report::Format::kPretty, pretty);
  // Two sinks: a section each, headed by its input and sink (docs/reports.md, "Tables at scale").
  EXPECT_TRUE(pretty.str().starts_with("input in.txt, sink null*\n")) << pretty.str();
  EXPECT_NE(pretty.str().find("\n\ninput in.txt, sink pipe\n"), std::string::npos) << pretty.str();
  EXPECT_TRUE(pretty.str().ends_with(
      "* null sink: output verified only through the pipe run before it (a program may detect "
      "/dev/null and skip the work)\n"))
      << pretty.str();
  std::ostringstream json;
  report::write_summary(s, report::Format::kJson, json);
  EXPECT_NE(json.str().find("\"verified\": \"through the pipe run only\""), std::string::npos);
  std::ostringstream tsv;
  report::write_summary(s, report::Format::kTsv, tsv);
  EXPECT_EQ(tsv.str().find("null*"), std::string::npos);  // data keeps the plain value
}

}  // namespace
}  // namespace iobench::report
