// The report's charts are plot's (docs/reports.md, "The HTML report"): report_marks adds what a
// page needs (a group per row, a class per run's dot, the median's interval) and heading = false
// leaves out the title and key; `iobench plot` keeps the defaults, and its golden SVGs
// (plot_gtest.cc) pin that its output does not change.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "driver/report/plot.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/occurrences.hpp"

namespace iobench::report {
namespace {

TEST(HtmlChart, ReportMarksAddRowGroupsRunDotsAndIntervals) {
  runfile::ReadOptions read;
  read.group_by = {"test", "input", "sink"};
  read.allow_missing_columns = true;
  const runfile::RunSet set =
      runfile::read_runs({iobench::test::kReportFixtures / "runs-ngram.tsv"}, read);
  PlotOptions options;
  const std::string plain = render(set, options).svg;
  options.report_marks = true;
  options.heading = false;
  const std::string marked = render(set, options).svg;
  EXPECT_EQ(iobench::test::occurrences(plain, "class="), 0u);
  EXPECT_EQ(iobench::test::occurrences(marked, "<g class=\"chart-row\""), 17u);  // 9 + 8 rows
  EXPECT_EQ(iobench::test::occurrences(marked, "<circle class=\"run\""),
            84u);                                                 // 85 runs, 1 timed out
  EXPECT_EQ(iobench::test::occurrences(marked, "<circle"), 84u);  // no key: no legend dot
  EXPECT_EQ(iobench::test::occurrences(marked, "class=\"ci95\""), 17u);
  EXPECT_EQ(iobench::test::occurrences(marked, "<title>95 % interval of the median: "), 17u);
  EXPECT_EQ(marked.find("iobench: elapsed time per test"), std::string::npos);
  // Every other mark is plot's: a whisker per row with runs, a star per section (the plain
  // chart's key adds one of each).
  EXPECT_EQ(iobench::test::occurrences(marked, "<path") + 1,
            iobench::test::occurrences(plain, "<path"));
  EXPECT_EQ(iobench::test::occurrences(marked, "<polygon") + 1,
            iobench::test::occurrences(plain, "<polygon"));
  EXPECT_EQ(iobench::test::occurrences(marked, ">fastest</text>"), 2u);
}

TEST(HtmlChart, TheKeyAloneNamesTheIntervalMark) {
  PlotOptions options;
  options.report_marks = true;
  const Chart key = render_key(options);
  EXPECT_NE(key.svg.find(">95 % interval of the median</text>"), std::string::npos);
  EXPECT_NE(key.svg.find(">one run</text>"), std::string::npos);
  EXPECT_EQ(key.svg.find("chart-row"), std::string::npos);  // no section, no row
  options.report_marks = false;
  EXPECT_EQ(render_key(options).svg.find("95 % interval"), std::string::npos);
}

// Two runs far apart: the t interval reaches below 0 and past the slowest run, yet its band stays
// within the plot (its bounds are in the tooltip).
TEST(HtmlChart, TheIntervalBandStaysWithinThePlot) {
  const auto set = runfile::parse_runs(
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n"
      "a\t1.0\t0.5\t0.1\t60\t100\na\t3.0\t0.5\t0.1\t60\t100\n"
      "b\t2.0\t0.5\t0.1\t60\t100\nb\t2.1\t0.5\t0.1\t60\t100\n",
      "wide.tsv", runfile::ReadOptions{{"test", "input", "sink"}, true});
  PlotOptions options;
  options.report_marks = true;
  options.heading = false;
  const std::string svg = render(set, options).svg;
  double grid_x0 = 1e9;
  double grid_x1 = 0;
  const std::regex grid(R"re(<line x1="([0-9.]+)")re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), grid); it != std::sregex_iterator();
       ++it) {
    grid_x0 = std::min(grid_x0, std::stod((*it)[1]));
    grid_x1 = std::max(grid_x1, std::stod((*it)[1]));
  }
  const std::regex band(R"re(<rect class="ci95" x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)")re");
  std::size_t bands = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), band); it != std::sregex_iterator();
       ++it, ++bands) {
    const double x0 = std::stod((*it)[1]);
    EXPECT_GE(x0, grid_x0 - 0.05) << svg;
    EXPECT_LE(x0 + std::stod((*it)[2]), grid_x1 + 0.15) << svg;
  }
  EXPECT_EQ(bands, 2u);
  EXPECT_NE(svg.find("<title>95 % interval of the median: -"), std::string::npos) << svg;
}

}  // namespace
}  // namespace iobench::report
