// summarize's pretty and markdown tables at many groups: one section per input and sink, each cut
// to --top N rows and a count of the rest; tsv keeps every row (docs/reports.md, "Tables at
// scale").
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {
namespace {

// `tests` tests on each of two sinks, one run each, the i-th test taking i + 1 seconds.
runfile::RunSet tests_on_two_sinks(std::size_t tests) {
  std::string text = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n";
  for (const char* sink : {"pipe", "file"}) {
    for (std::size_t t = 0; t < tests; ++t) {
      text += "t" + std::to_string(t) + "\t" + std::to_string(t + 1) + "\t0.5\t0.5\t100\t1024\t" +
              "no-such-input\t" + sink + "\tok\n";
    }
  }
  return runfile::parse_runs({{"many.tsv", text, ""}});
}

std::string written(const runfile::RunSet& set, Format format, const TableView& view) {
  std::ostringstream out;
  write_summary(summarize(set), format, out, view);
  return out.str();
}

TEST(SummaryTop, EachInputAndSinkHasAHeadingItsFirstRowsAndACountOfTheRest) {
  EXPECT_EQ(written(tests_on_two_sinks(5), Format::kPretty, {2}),
            "input no-such-input, sink pipe\n"
            "test  n  elapsed s  ± MAD   min   max  user s  system s  cpu %  mem MiB  MB/s  "
            "    relative\n"
            "──────────────────────────────────────────────────────────────────────────────────"
            "─────────\n"
            "t0    1       1.00   0.00  1.00  1.00    0.50      0.50  100.0      1.0     -  "
            "   reference\n"
            "t1    1       2.00   0.00  2.00  2.00    0.50      0.50  100.0      1.0     -  "
            "2.00× slower\n"
            "… and 3 more (all of them with --format tsv)\n"
            "\n"
            "input no-such-input, sink file\n"
            "test  n  elapsed s  ± MAD   min   max  user s  system s  cpu %  mem MiB  MB/s  "
            "    relative\n"
            "──────────────────────────────────────────────────────────────────────────────────"
            "─────────\n"
            "t0    1       1.00   0.00  1.00  1.00    0.50      0.50  100.0      1.0     -  "
            "   reference\n"
            "t1    1       2.00   0.00  2.00  2.00    0.50      0.50  100.0      1.0     -  "
            "2.00× slower\n"
            "… and 3 more (all of them with --format tsv)\n");
}

TEST(SummaryTop, MarkdownSectionsAreBoldLinesAndTheCountIsAParagraph) {
  const std::string md = written(tests_on_two_sinks(3), Format::kMarkdown, {1, "HINT"});
  EXPECT_EQ(md.substr(0, md.find("| t0")),
            "**input no-such-input, sink pipe**\n"
            "\n"
            "| test | n | elapsed s | ± MAD | min | max | user s | system s | cpu % | mem MiB | "
            "MB/s | relative |\n"
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
            "|\n");
  EXPECT_NE(md.find("| reference |\n\n… and 2 more (HINT)\n\n**input no-such-input, sink "
                    "file**\n\n| test |"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("| t1 "), std::string::npos) << md;
}

TEST(SummaryTop, ASectionWithinTheCutHasNoCountLine) {
  const std::string pretty = written(tests_on_two_sinks(3), Format::kPretty, {3});
  EXPECT_EQ(pretty.find("more"), std::string::npos) << pretty;
  EXPECT_NE(pretty.find("\nt2 "), std::string::npos) << pretty;
  EXPECT_EQ(written(tests_on_two_sinks(3), Format::kPretty, {0}), pretty);
}

TEST(SummaryTop, OneSectionKeepsItsInputAndSinkColumnsAndHasNoHeading) {
  std::string text = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n";
  for (const char* test : {"a", "b", "c"}) {
    text += std::string(test) + "\t1\t0.5\t0.5\t100\t1024\tin.txt\tpipe\tok\n";
  }
  const std::string pretty =
      written(runfile::parse_runs({{"one.tsv", text, ""}}), Format::kPretty, {2});
  EXPECT_TRUE(pretty.starts_with("test  input   sink  n  elapsed s")) << pretty;
  EXPECT_TRUE(pretty.ends_with("\n… and 1 more (all of them with --format tsv)\n")) << pretty;
  EXPECT_EQ(pretty.find("input in.txt, sink pipe"), std::string::npos) << pretty;
}

TEST(SummaryTop, TsvAndJsonHaveEveryRowWhateverTheCut) {
  const runfile::RunSet set = tests_on_two_sinks(50);
  const std::string tsv = written(set, Format::kTsv, {3});
  EXPECT_EQ(std::count(tsv.begin(), tsv.end(), '\n'), 101) << tsv;
  EXPECT_EQ(tsv, written(set, Format::kTsv, {0}));
  EXPECT_EQ(written(set, Format::kJson, {3}), written(set, Format::kJson, {0}));
}

TEST(SummaryTop, TheCountLineHasThousandsSeparators) {
  const std::string pretty = written(tests_on_two_sinks(5000), Format::kPretty, {20});
  EXPECT_NE(pretty.find("\n… and 4,980 more (all of them with --format tsv)\n\ninput "),
            std::string::npos);
  EXPECT_EQ(std::count(pretty.begin(), pretty.end(), '\n'), 2 * (1 + 2 + 20 + 1) + 1);
}

}  // namespace
}  // namespace iobench::report
