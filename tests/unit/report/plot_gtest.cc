// The SVG chart: structure, marks, and that no two texts overlap (estimated monospace boxes);
// and the whole SVG of fixed runs against golden files (tests/fixtures/reports/golden). To accept
// a deliberate change of the drawing: IOBENCH_UPDATE_GOLDEN=1 ./iobench_unit_tests
// --gtest_filter='PlotGolden*', then review the diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "driver/report/plot.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/occurrences.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::report {
namespace {

runfile::RunSet read(const std::vector<std::filesystem::path>& files) {
  runfile::ReadOptions options;
  options.group_by = {"test", "input", "sink"};
  options.allow_missing_columns = true;
  return runfile::read_runs(files, options);
}

void expect_svg_golden(const std::string& svg, const std::string& golden_name) {
  const auto path = iobench::test::kReportFixtures / "golden" / golden_name;
  if (std::getenv("IOBENCH_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << svg;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  std::stringstream golden;
  golden << in.rdbuf();
  EXPECT_EQ(svg, golden.str()) << "golden file " << path << " differs";
}

void expect_no_overlap(const Chart& chart) {
  const auto& boxes = chart.text_boxes;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_GE(boxes[i].x0, 0) << boxes[i].text;
    EXPECT_LE(boxes[i].x1, chart.width) << boxes[i].text;
    EXPECT_LE(boxes[i].y1, chart.height) << boxes[i].text;
    for (std::size_t j = i + 1; j < boxes.size(); ++j) {
      const bool apart = boxes[i].x1 <= boxes[j].x0 || boxes[j].x1 <= boxes[i].x0 ||
                         boxes[i].y1 <= boxes[j].y0 || boxes[j].y1 <= boxes[i].y0;
      EXPECT_TRUE(apart) << "'" << boxes[i].text << "' overlaps '" << boxes[j].text << "'";
    }
  }
}

TEST(Plot, ElapsedChartOfTheNgramRuns) {
  const Chart chart =
      render(read({iobench::test::kReportFixtures / "runs-ngram.tsv"}), PlotOptions{});
  const std::string& svg = chart.svg;
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(iobench::test::occurrences(svg, "<svg"), 1u);
  EXPECT_EQ(iobench::test::occurrences(svg, "<text"), iobench::test::occurrences(svg, "</text>"));
  // Two sections (pipe, file); 9 + 8 rows; 85 runs of which 1 timed out: 84 dots + 1 legend dot.
  EXPECT_NE(svg.find("input data/ngram-s.tsv · sink pipe"), std::string::npos);
  EXPECT_NE(svg.find("input data/ngram-s.tsv · sink file"), std::string::npos);
  EXPECT_EQ(iobench::test::occurrences(svg, "<circle"), 85u);
  EXPECT_EQ(iobench::test::occurrences(svg, "<polygon"),
            3u);  // a star per section, one in the legend
  EXPECT_EQ(iobench::test::occurrences(svg, ">fastest</text>"), 2u);
  EXPECT_NE(svg.find(">wc</text>"), std::string::npos);
  EXPECT_NE(svg.find(">1 excluded</text>"), std::string::npos);
  // user and system strips: one each per row with runs, plus the legend's.
  EXPECT_EQ(iobench::test::occurrences(svg, "<title>user "), 17u);
  EXPECT_EQ(iobench::test::occurrences(svg, "<title>system "), 17u);
  // Ticks in seconds.
  EXPECT_NE(svg.find(">0.0 s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">3.5 s</text>"), std::string::npos);
  expect_no_overlap(chart);
}

TEST(Plot, MemChart) {
  PlotOptions options;
  options.metric = runfile::Metric::kMem;
  const Chart chart = render(read({iobench::test::kReportFixtures / "runs-ngram.tsv",
                                   iobench::test::kReportFixtures / "gnu-time.tsv"}),
                             options);
  EXPECT_NE(chart.svg.find("peak memory"), std::string::npos);
  EXPECT_NE(chart.svg.find(">4 MiB</text>"), std::string::npos);
  EXPECT_EQ(chart.svg.find("<title>user "), std::string::npos);
  EXPECT_NE(chart.svg.find("(no input or sink column)"), std::string::npos);
  expect_no_overlap(chart);
}

TEST(Plot, LongNamesAreShortenedEscapedAndStillApart) {
  const iobench::test::TempDir dir("plot-long");
  const auto path = dir / "runs.tsv";
  {
    std::ofstream out(path);
    out << "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\n";
    const std::string long_name(120, 'x');
    for (int i = 0; i < 3; ++i) {
      out << long_name << "-end\t0.000" << 4 + i << "\t0.0001\t0.0001\t50\t100\tin<&>\tpipe\n";
      out << "a<b>&\"c\"\t0.0009" << i << "\t0.0001\t0.0001\t50\t100\tin<&>\tpipe\n";
    }
  }
  const Chart chart = render(read({path}), PlotOptions{});
  EXPECT_NE(chart.svg.find("a&lt;b&gt;&amp;&quot;c&quot;"), std::string::npos);
  EXPECT_NE(chart.svg.find("…"), std::string::npos);
  EXPECT_NE(chart.svg.find("-end</text>"), std::string::npos);
  EXPECT_NE(chart.svg.find(" µs</text>"), std::string::npos);  // sub-millisecond scale in µs
  EXPECT_EQ(chart.svg.find("<b>"), std::string::npos);
  expect_no_overlap(chart);
}

TEST(Plot, AllRunsFailedStillDrawsTheRow) {
  const iobench::test::TempDir dir("plot-failed");
  const auto path = dir / "runs.tsv";
  std::ofstream(path) << "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\n"
                         "good\t1\t0.5\t0.1\t60\t100\tok\n"
                         "bad\t1\t0.5\t0.1\t60\t100\tfailed\n";
  const Chart chart = render(read({path}), PlotOptions{});
  EXPECT_NE(chart.svg.find(">no successful run</text>"), std::string::npos);
  expect_no_overlap(chart);
}

TEST(Plot, WideRangeGetsALogAxis) {
  const iobench::test::TempDir dir("plot-log");
  const auto path = dir / "runs.tsv";
  std::ofstream(path) << "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n"
                         "fast\t0.0012\t0.0005\t0.0005\t80\t100\n"
                         "fast\t0.0013\t0.0005\t0.0005\t80\t100\n"
                         "slow\t0.250\t0.2\t0.01\t80\t100\n"
                         "slow\t0.260\t0.2\t0.01\t80\t100\n";
  const Chart chart = render(read({path}), PlotOptions{});
  EXPECT_NE(chart.svg.find("· log scale"), std::string::npos);
  EXPECT_NE(chart.svg.find(">1 ms</text>"), std::string::npos);
  EXPECT_NE(chart.svg.find(">1000 ms</text>"), std::string::npos);
  expect_no_overlap(chart);
  // The CPU strip keeps user and system in proportion on a log axis: "slow" has 0.2 s user and
  // 0.01 s system, so its user part is 20 times its system part (stacked, the system part drew
  // as wide as a twentieth of a decade and the user part from the axis' first decade on).
  const std::regex strip(
      R"re(width="([0-9.]+)" height="[0-9]+" fill="[^"]+"><title>(user|system) 2)re");
  std::vector<double> widths;
  for (std::sregex_iterator it(chart.svg.begin(), chart.svg.end(), strip), end; it != end; ++it) {
    widths.push_back(std::stod((*it)[1]));
  }
  ASSERT_EQ(widths.size(), 1U);  // "user 200 ms"; system is "10.0 ms", matched below
  const std::regex system_strip(
      R"re(width="([0-9.]+)" height="[0-9]+" fill="[^"]+"><title>system 10)re");
  std::smatch system;
  ASSERT_TRUE(std::regex_search(chart.svg, system, system_strip));
  EXPECT_NEAR(widths[0] / std::stod(system[1]), 20.0, 0.5);
  // A narrow range stays linear from 0.
  const Chart linear =
      render(read({iobench::test::kReportFixtures / "runs-ngram.tsv"}), PlotOptions{});
  EXPECT_EQ(linear.svg.find("log scale"), std::string::npos);
}

TEST(Plot, DrawsACounterColumn) {
  runfile::ReadOptions read_options;
  read_options.group_by = {"test", "input", "sink"};
  read_options.allow_missing_columns = true;
  const auto set = runfile::parse_runs(
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tsyscalls\n"
      "A\t1\t0.5\t0.5\t100\t5\tin\tpipe\t2000\n"
      "A\t1\t0.5\t0.5\t100\t5\tin\tpipe\t2100\n"
      "A\t1\t0.5\t0.5\t100\t5\tin\tpipe\t2050\n"
      "B\t1\t0.5\t0.5\t100\t5\tin\tpipe\t40000\n"
      "B\t1\t0.5\t0.5\t100\t5\tin\tpipe\t\n",  // not counted: not a zero
      "counters.tsv", read_options);
  PlotOptions options;
  options.metric = metric_of(runfile::Counter::kSyscalls);
  const Chart chart = render(set, options);
  EXPECT_NE(chart.svg.find(">iobench: syscalls per test (kernel counter)</text>"),
            std::string::npos);
  EXPECT_NE(chart.svg.find(">median syscalls</text>"), std::string::npos);
  EXPECT_NE(chart.svg.find(">2.05 k</text>"), std::string::npos) << chart.svg;
  EXPECT_NE(chart.svg.find(">40.00 k</text>"), std::string::npos) << chart.svg;
  EXPECT_NE(chart.svg.find(">smallest</text>"), std::string::npos);
  EXPECT_EQ(chart.svg.find("user CPU"), std::string::npos);  // no time strip for a count
}

TEST(Plot, RejectsOtherMetrics) {
  PlotOptions options;
  options.metric = runfile::Metric::kUser;
  EXPECT_THROW(render(read({iobench::test::kReportFixtures / "gnu-time.tsv"}), options), Error);
}

// Every mark of the chart, byte for byte: the elapsed chart (strips, a timed-out run, two
// sections), memory, a counter, a log axis, and a narrow chart whose legend wraps.
TEST(PlotGolden, ElapsedOfTheNgramRuns) {
  PlotOptions options;
  options.subtitle = "runs-ngram.tsv · 85 runs";
  expect_svg_golden(render(read({iobench::test::kReportFixtures / "runs-ngram.tsv"}), options).svg,
                    "plot-elapsed.svg");
}

TEST(PlotGolden, MemOfTwoFiles) {
  PlotOptions options;
  options.metric = runfile::Metric::kMem;
  expect_svg_golden(render(read({iobench::test::kReportFixtures / "runs-ngram.tsv",
                                 iobench::test::kReportFixtures / "gnu-time.tsv"}),
                           options)
                        .svg,
                    "plot-mem.svg");
}

TEST(PlotGolden, ACounterOnALogAxis) {
  runfile::ReadOptions read_options;
  read_options.group_by = {"test", "input", "sink"};
  read_options.allow_missing_columns = true;
  const auto set = runfile::parse_runs(
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tsyscalls\tstatus\n"
      "A\t1\t0.5\t0.5\t100\t5\tin\tpipe\t20\tok\n"
      "A\t1\t0.5\t0.5\t100\t5\tin\tpipe\t21\tok\n"
      "B\t1\t0.5\t0.5\t100\t5\tin\tpipe\t40000\tok\n"
      "B\t1\t0.5\t0.5\t100\t5\tin\tpipe\t\tok\n"
      "C\t1\t0.5\t0.5\t100\t5\tin\tpipe\t\tfailed\n",
      "counters.tsv", read_options);
  PlotOptions options;
  options.metric = metric_of(runfile::Counter::kSyscalls);
  options.title = "syscalls <per> test";
  expect_svg_golden(render(set, options).svg, "plot-counter-log.svg");
}

TEST(PlotGolden, ANarrowElapsedChartWrapsItsLegend) {
  PlotOptions options;
  options.width_px = 500;  // drawn at the 640 px minimum
  options.subtitle = std::string(200, 's');
  expect_svg_golden(render(read({iobench::test::kReportFixtures / "gnu-time.tsv"}), options).svg,
                    "plot-narrow.svg");
}

// Written through the atomic writer: a link planted at the fixed `<out>.tmp` plot once used is
// not followed, and nothing but the chart (and the planted link) is left in the folder.
TEST(Plot, WritesTheFile) {
  const iobench::test::TempDir dir("plot");
  std::ofstream(dir / "victim") << "precious\n";
  std::filesystem::create_symlink(dir / "victim", dir / "chart.svg.tmp");
  const auto out = dir / "chart.svg";
  plot_files({iobench::test::kReportFixtures / "gnu-time.tsv"}, out, PlotOptions{});
  std::ifstream in(out);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  std::ifstream victim(dir / "victim");
  std::string victim_text;
  std::getline(victim, victim_text);
  EXPECT_EQ(victim_text, "precious");
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    names.insert(entry.path().filename());
  }
  EXPECT_EQ(names, (std::set<std::string>{"chart.svg", "chart.svg.tmp", "victim"}));
}

}  // namespace
}  // namespace iobench::report
