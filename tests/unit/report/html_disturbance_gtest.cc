// The HTML report's disturbance table (docs/reports.md, "The HTML report"): each run's
// wait_cpu_s (the rule's figure), steal_s and others_cpu_s (context) where the run file has them,
// in the order the runs ran, the disturbed runs marked; nothing where the file has no such
// columns.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "driver/report/html_report.hpp"
#include "driver/report/html_rusage.hpp"
#include "driver/runfile/schema.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::report {
namespace {

const char* const kDisturbedHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\tothers_cpu_s\t"
    "steal_s\n";
const char* const kWaitHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\tothers_cpu_s\t"
    "steal_s\twait_cpu_s\n";

TEST(HtmlDisturbance, EveryRowsFiguresInTheOrderTheyRanWithTheirStatus) {
  const auto runs = others_during_runs_of(
      {{"a.tsv", std::string(kDisturbedHeader) +
                     "a\t0.05\t0.04\t0\t80\t1\tin\tpipe\t1\tok\t0.010\t0.000\n"
                     "a\t0.06\t0.04\t0\t70\t1\tin\tpipe\t2\tdisturbed\t0.250\t0.020\n"
                     "b\t0.07\t0.04\t0\t60\t1\tin\tpipe\t1\tok\t\t\n"
                     "a\t0.05\t0.04\t0\t80\t1\tin\tpipe\t2\tok\t0.000\t0.000\n"}});
  ASSERT_EQ(runs.count(cell_key("a", "in", "pipe")), 1u);
  const auto& a = runs.at(cell_key("a", "in", "pipe"));
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[1].repeat, 2);
  EXPECT_EQ(a[1].status, "disturbed");
  EXPECT_EQ(a[1].elapsed_s, 0.06);
  EXPECT_EQ(a[1].others_cpu_s, 0.25);
  EXPECT_EQ(a[1].steal_s, 0.02);
  EXPECT_EQ(a[2].status, "ok");  // the re-run, after it
  EXPECT_EQ(a[2].others_cpu_s, 0.0);
  const auto& b = runs.at(cell_key("b", "in", "pipe"));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_FALSE(b[0].others_cpu_s.has_value());  // empty: not measured, never 0
  EXPECT_FALSE(b[0].steal_s.has_value());
  EXPECT_TRUE(others_during_runs_of({{"gnu.tsv",
                                      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n"
                                      "a\t1\t1\t0\t100\t1\n"}})
                  .empty());
}

TEST(HtmlDisturbance, ThePageShowsEachRunsFiguresAndMarksTheDisturbedOnes) {
  const iobench::test::TempDir dir("html-disturbance");
  const auto file = dir / "runs.tsv";
  {
    std::ofstream out(file);
    out << kWaitHeader;
    for (int repeat = 1; repeat <= 4; ++repeat) {
      out << fmt::format("ref\t0.05\t0.04\t0\t80\t1\tin\tpipe\t{}\tok\t0.010\t0.000\t0.000200\n",
                         repeat);
      if (repeat == 2)
        out << "new\t0.09\t0.04\t0\t44\t1\tin\tpipe\t2\tdisturbed\t0.250\t0.020\t0.031000\n";
      out << fmt::format("new\t0.06\t0.04\t0\t66\t1\tin\tpipe\t{}\tok\t0.000\t0.000\t0.000100\n",
                         repeat);
    }
  }
  const std::string page = render_html_report(build_report_model({file}, ""), HtmlReportOptions{});
  EXPECT_NE(page.find(R"(<table class="sortable disturbance">)"), std::string::npos);
  EXPECT_NE(page.find(R"(<span class="run disturbed" title="repeat 2, disturbed, )"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find(">r2 waited 31.00 ms + 20.00 ms steal disturbed</span>"), std::string::npos)
      << page;
  EXPECT_NE(page.find(R"(<span class="run" title="repeat 1, ok, )"), std::string::npos);
  EXPECT_NE(page.find(">r1 waited 200 µs</span>"), std::string::npos) << page;
  EXPECT_NE(page.find("waited for a CPU 31.00 ms, steal 20.00 ms; others&#39; CPU 250.00 ms"),
            std::string::npos)
      << page;
  // One disturbed run of 5 rows for 'new', its longest wait and its others' largest figure; the
  // times table keeps it out (4 ok runs) and says so beside the row.
  EXPECT_NE(
      page.find(R"(<td data-v="5">5</td><td data-v="1">1</td><td data-v="0.031">0.031 s</td>)"),
      std::string::npos)
      << page;
  EXPECT_NE(page.find(R"(<td data-v="0.25">0.250 s</td>)"), std::string::npos);
  EXPECT_NE(page.find(">1 disturbed</span>"), std::string::npos);
}

TEST(HtmlDisturbance, AFileWithoutTheColumnsHasNoDisturbanceTable) {
  const std::string page =
      render_html_report(build_report_model({iobench::test::kReportFixtures / "gnu-time.tsv"}, ""),
                         HtmlReportOptions{});
  EXPECT_EQ(page.find("sortable disturbance"), std::string::npos);
}

}  // namespace
}  // namespace iobench::report
