// Issue 48 on every surface but summarize's table (reader_files_gtest.cc has that): plot, compare
// and the HTML report never pool run files of another cache mode or host, and name what split
// them; a test with "verify": false, and disturbed runs, are marked in summarize's table and JSON,
// the plot and the report.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "driver/report/compare.hpp"
#include "driver/report/export.hpp"
#include "driver/report/html_model.hpp"
#include "driver/report/plot.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/meta.hpp"
#include "tests/unit/occurrences.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::report {
namespace {

struct FileSpec {
  std::string name;
  std::string cache = "warm";
  std::string host = "host-1";
  double elapsed_s = 0.012;
  std::string verify_false;  // a strategy of the config with "verify": false
  int disturbed = 0;         // disturbed rows of test A
};

FileSpec spec_of(std::string name, std::string cache, std::string host, double elapsed_s) {
  FileSpec spec;
  spec.name = std::move(name);
  spec.cache = std::move(cache);
  spec.host = std::move(host);
  spec.elapsed_s = elapsed_s;
  return spec;
}

// DIR/NAME.tsv with 5 ok runs of A and B each (B twice as slow) into a pipe, and its meta file.
std::filesystem::path write_runs(const iobench::test::TempDir& dir, const FileSpec& spec) {
  auto runs = dir / (spec.name + ".tsv");
  std::ofstream out(runs);
  out << "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n";
  for (int i = 0; i < 5; ++i) {
    for (const auto& [test, factor] : {std::pair{"A", 1.0}, std::pair{"B", 2.0}}) {
      const double elapsed_s = spec.elapsed_s * factor * (1 + 0.01 * i);
      out << fmt::format("{}\t{:.6f}\t0.001\t0.001\t50\t100\tin.txt\tpipe\tok\n", test, elapsed_s);
    }
  }
  for (int i = 0; i < spec.disturbed; ++i) {
    out << fmt::format("A\t{:.6f}\t0.001\t0.001\t50\t100\tin.txt\tpipe\tdisturbed\n",
                       spec.elapsed_s * 3);
  }
  out.close();
  runfile::RunMeta meta;
  meta.runs_file = runs.string();
  nlohmann::ordered_json config = {{"name", spec.name}, {"cache", spec.cache}};
  config["strategies"] = nlohmann::ordered_json::array();
  for (const char* test : {"A", "B"}) {
    nlohmann::ordered_json strategy = {{"name", test}, {"command", {"cat", "{input}"}}};
    if (spec.verify_false == test) strategy["verify"] = false;
    config["strategies"].push_back(strategy);
  }
  meta.config = config;
  meta.context = runfile::MachineContext{};
  meta.context->host = spec.host;
  runfile::write_meta(runfile::meta_path_for(runs), meta);
  return runs;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Issue 48: a warm and a cold run file made one median of both. The plot draws them in two
// sections, each naming its cache mode, and says what split them.
TEST(UnlikeRuns, PlotDrawsAWarmAndAColdFileApart) {
  const iobench::test::TempDir dir("unlike-plot");
  const auto warm = write_runs(dir, spec_of("warm", "warm", "host-1", 0.012));
  const auto cold = write_runs(dir, spec_of("cold", "cold", "host-1", 0.084));
  plot_files({warm, cold}, dir / "chart.svg", PlotOptions{});
  const std::string svg = read_text(dir / "chart.svg");
  EXPECT_EQ(test::occurrences(svg, "input in.txt · sink pipe · cache warm"), 1U) << svg;
  EXPECT_EQ(test::occurrences(svg, "input in.txt · sink pipe · cache cold"), 1U);
  EXPECT_NE(svg.find("not pooled: the run files differ in cache (warm, cold)"), std::string::npos);
  // Two rows of A, one a section: 12 ms and 84 ms, never their pooled 48 ms.
  EXPECT_EQ(test::occurrences(svg, "<title>A: median "), 2U);
  EXPECT_NE(svg.find("<title>A: median 12.24 ms, n = 5"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>A: median 85.68 ms, n = 5"), std::string::npos);
}

TEST(UnlikeRuns, CompareNeverPoolsOrComparesAcrossACacheMode) {
  const iobench::test::TempDir dir("unlike-compare");
  const auto warm = write_runs(dir, spec_of("warm", "warm", "host-1", 0.012));
  const auto cold = write_runs(dir, spec_of("cold", "cold", "host-1", 0.084));
  const auto warm2 = write_runs(dir, spec_of("warm2", "warm", "host-1", 0.012));
  const auto cold2 = write_runs(dir, spec_of("cold2", "cold", "host-1", 0.084));
  // Each side pools a warm and a cold file: two groups of A a side, each compared with its own.
  const Result pooled = compare_files({warm, cold}, {warm2, cold2}, {}, {});
  EXPECT_EQ(pooled.group_by, (std::vector<std::string>{"test", "input", "sink", "cache"}));
  ASSERT_EQ(pooled.rows.size(), 4U);
  EXPECT_EQ(pooled.rows[0].key, (std::vector<std::string>{"A", "in.txt", "pipe", "warm"}));
  EXPECT_NEAR(pooled.rows[0].base_median, 0.01224, 1e-6);
  EXPECT_EQ(pooled.rows[2].key, (std::vector<std::string>{"A", "in.txt", "pipe", "cold"}));
  EXPECT_NEAR(pooled.rows[2].new_median, 0.08568, 1e-6);
  // A warm base and a cold new: not compared (a 7x "slowdown" that is the cache), and said why.
  const Result across = compare_files({warm}, {cold}, {}, {});
  EXPECT_TRUE(across.rows.empty());
  ASSERT_FALSE(across.warnings.empty());
  EXPECT_EQ(across.warnings[0],
            "not pooled: the run files differ in cache (warm, cold); each group names its own "
            "(--group-by without cache pools them)");
  // --group-by chooses: without cache they are compared.
  EXPECT_EQ(compare_files({warm}, {cold}, {"test", "input", "sink"}, {}).rows.size(), 2U);
}

TEST(UnlikeRuns, TheReportShowsAWarmAndAColdFileAsTwoSections) {
  const iobench::test::TempDir dir("unlike-report");
  const auto warm = write_runs(dir, spec_of("warm", "warm", "host-1", 0.012));
  const auto cold = write_runs(dir, spec_of("cold", "cold", "host-1", 0.084));
  const ReportModel model = build_report_model(std::vector<std::filesystem::path>{warm, cold}, "");
  ASSERT_EQ(model.sections.size(), 2U);
  using Conditions = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(model.sections[0]->conditions, (Conditions{{"cache", "warm"}}));
  EXPECT_EQ(model.sections[1]->conditions, (Conditions{{"cache", "cold"}}));
  for (const auto& section : model.sections) {
    ASSERT_EQ(section->rows.size(), 2U);
    EXPECT_EQ(section->rows[0].stats->metric(runfile::Metric::kElapsed).n, 5U);
  }
  EXPECT_NEAR(model.sections[1]->rows[0].stats->metric(runfile::Metric::kElapsed).median, 0.08568,
              1e-6);
  EXPECT_EQ(model.split_note,
            "not pooled: the run files differ in cache (warm, cold); each group names its own");
}

// Two hosts' files of one cache mode: grouped by host (the meta files' host names), as the
// cache mode; one host's files are pooled as before.
TEST(UnlikeRuns, FilesOfTwoHostsAreGroupedByHost) {
  const iobench::test::TempDir dir("unlike-host");
  const auto one = write_runs(dir, spec_of("one", "warm", "host-1", 0.012));
  const auto two = write_runs(dir, spec_of("two", "warm", "host-2", 0.020));
  const runfile::RunSet set = runfile::read_runs({one, two}, runfile::cell_grouping());
  EXPECT_EQ(set.group_by, (std::vector<std::string>{"test", "input", "sink", "host"}));
  EXPECT_EQ(set.split_by, std::vector<std::string>{"host"});
  EXPECT_EQ(set.groups.size(), 4U);
  const auto again = write_runs(dir, spec_of("again", "warm", "host-1", 0.012));
  EXPECT_EQ(runfile::read_runs({one, again}, runfile::cell_grouping()).groups.size(), 2U);
  const std::string svg = render(set, PlotOptions{}).svg;
  EXPECT_NE(svg.find("sink pipe · host host-2"), std::string::npos);
}

// Issue 48: a strategy with "verify": false looked exactly like a checked one. Every surface
// marks it: summarize's table and its note, JSON's "verified": false and marks, the plot, the
// report's notes.
TEST(UnlikeRuns, AnUnverifiedTestIsMarkedOnEverySurface) {
  const iobench::test::TempDir dir("unlike-verify");
  FileSpec spec = spec_of("runs", "warm", "host-1", 0.012);
  spec.verify_false = "B";
  const auto runs = write_runs(dir, spec);
  const runfile::RunSet set = runfile::read_runs({runs});
  ASSERT_EQ(set.groups.size(), 2U);
  EXPECT_FALSE(set.groups[0].unverified);
  EXPECT_TRUE(set.groups[1].unverified);
  const Summary summary = summarize(set);
  std::ostringstream pretty;
  write_summary(summary, Format::kPretty, pretty);
  EXPECT_NE(pretty.str().find("B (unverified) "), std::string::npos) << pretty.str();
  EXPECT_EQ(pretty.str().find("A (unverified)"), std::string::npos);
  EXPECT_NE(pretty.str().find("(unverified): its strategy says \"verify\": false"),
            std::string::npos);
  std::ostringstream json;
  write_summary(summary, Format::kJson, json);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["results"][1]["iobench"]["verified"], false);
  EXPECT_EQ(doc["results"][1]["iobench"]["marks"], nlohmann::json::array({"unverified"}));
  EXPECT_FALSE(doc["results"][0]["iobench"].contains("marks"));
  const runfile::RunSet cells = runfile::read_runs({runs}, runfile::cell_grouping());
  EXPECT_EQ(test::occurrences(render(cells, PlotOptions{}).svg, ">unverified</text>"), 1U);
  const ReportModel model = build_report_model(std::vector<std::filesystem::path>{runs}, "");
  ASSERT_EQ(model.sections.size(), 1U);
  for (const ReportRow& row : model.sections[0]->rows) {
    const bool noted = std::any_of(row.notes.begin(), row.notes.end(),
                                   [](const Note& n) { return n.label == "unverified"; });
    EXPECT_EQ(noted, row.test == "B") << row.test;
  }
}

// A cell some of whose runs were disturbed (and left out, re-run under the rule's rerun) is
// marked with their count in summarize's table and JSON and in the plot.
TEST(UnlikeRuns, DisturbedRunsAreMarked) {
  const iobench::test::TempDir dir("unlike-disturbed");
  FileSpec spec = spec_of("runs", "warm", "host-1", 0.012);
  spec.disturbed = 2;
  const auto runs = write_runs(dir, spec);
  const runfile::RunSet set = runfile::read_runs({runs});
  const Summary summary = summarize(set);
  std::ostringstream pretty;
  write_summary(summary, Format::kPretty, pretty);
  EXPECT_NE(pretty.str().find("A (2 disturbed) "), std::string::npos) << pretty.str();
  EXPECT_NE(pretty.str().find("(N disturbed): N of its runs were disturbed"), std::string::npos);
  std::ostringstream json;
  write_summary(summary, Format::kJson, json);
  const auto doc = nlohmann::json::parse(json.str());
  EXPECT_EQ(doc["results"][0]["iobench"]["marks"], nlohmann::json::array({"2 disturbed"}));
  const runfile::RunSet cells = runfile::read_runs({runs}, runfile::cell_grouping());
  EXPECT_EQ(test::occurrences(render(cells, PlotOptions{}).svg, ">2 disturbed</text>"), 1U);
}

}  // namespace
}  // namespace iobench::report
