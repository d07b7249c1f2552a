// Exporters against golden files (tests/fixtures/reports/golden). To accept a deliberate change
// of format: IOBENCH_UPDATE_GOLDEN=1 ./iobench_unit_tests --gtest_filter='Export*', then review
// the diff.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/error.hpp"
#include "driver/report/export.hpp"
#include "driver/report/medians_file.hpp"
#include "driver/report/summary.hpp"
#include "driver/runfile/reader.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::report {
namespace {

const std::filesystem::path kSource = IOBENCH_SOURCE_DIR;

// Runs the test in the source folder, where the fixtures' input paths resolve (MB/s).
class InSourceDir : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = std::filesystem::current_path();
    std::filesystem::current_path(kSource);
  }
  void TearDown() override { std::filesystem::current_path(saved_); }

 private:
  std::filesystem::path saved_;
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_golden(const std::string& actual, const std::string& golden_name) {
  const auto path = iobench::test::kReportFixtures / "golden" / golden_name;
  if (std::getenv("IOBENCH_UPDATE_GOLDEN") != nullptr) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  EXPECT_EQ(actual, read_file(path)) << "golden file " << path << " differs";
}

std::string summarize_to_string(const std::vector<std::filesystem::path>& files, Format format,
                                const runfile::ReadOptions& read = {},
                                const report::SummaryOptions& options = {}) {
  const runfile::RunSet set = runfile::read_runs(files, read);
  const report::Summary s = report::summarize(set, options);
  std::ostringstream out;
  write_summary(s, format, out);
  return out.str();
}

using ExportGolden = InSourceDir;

TEST_F(ExportGolden, SummaryPretty) {
  expect_golden(summarize_to_string({"tests/fixtures/reports/runs-small.tsv"}, Format::kPretty),
                "runs-small.pretty.txt");
}

TEST_F(ExportGolden, SummaryTsv) {
  expect_golden(summarize_to_string({"tests/fixtures/reports/runs-small.tsv"}, Format::kTsv),
                "runs-small.summary.tsv");
}

TEST_F(ExportGolden, SummaryMarkdown) {
  expect_golden(summarize_to_string({"tests/fixtures/reports/runs-small.tsv"}, Format::kMarkdown),
                "runs-small.md");
}

TEST_F(ExportGolden, SummaryJson) {
  expect_golden(summarize_to_string({"tests/fixtures/reports/runs-small.tsv"}, Format::kJson),
                "runs-small.json");
}

TEST_F(ExportGolden, GnuTimeRecipeSummaryTsv) {
  expect_golden(summarize_to_string({"tests/fixtures/reports/gnu-time.tsv"}, Format::kTsv),
                "gnu-time.summary.tsv");
}

TEST_F(ExportGolden, BaselineChangesRelative) {
  report::SummaryOptions options;
  options.baseline = "getlineInRawOut";
  expect_golden(
      summarize_to_string({"tests/fixtures/reports/runs-small.tsv"}, Format::kTsv, {}, options),
      "runs-small.baseline.summary.tsv");
}

TEST_F(ExportGolden, RunReportWritesMediansTableAndWarnings) {
  const iobench::test::TempDir dir("report");
  report::MediansReportRequest request;
  request.runs_tsv = "tests/fixtures/reports/runs-small.tsv";
  request.medians_tsv = dir / "medians" / "runs-small.tsv";
  std::ostringstream table;
  std::ostringstream warnings;
  report::write_medians_report(
      request, runfile::read_runs({request.runs_tsv}, report::medians_grouping()), table, warnings);
  expect_golden(read_file(request.medians_tsv), "runs-small.medians.tsv");
  expect_golden(table.str(), "runs-small.report.txt");
  expect_golden(warnings.str(), "runs-small.warnings.txt");
  // Written through the atomic writer: whatever its temporary name, nothing else is left.
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "medians")) {
    names.push_back(entry.path().filename());
  }
  EXPECT_EQ(names, std::vector<std::string>{"runs-small.tsv"});
}

TEST(Export, MediansHaveExactlyTheDesignColumns) {
  const runfile::RunSet set = runfile::read_runs({iobench::test::kReportFixtures / "gnu-time.tsv"});
  std::ostringstream out;
  write_medians_tsv(report::summarize(set), out);
  const std::string header = out.str().substr(0, out.str().find('\n'));
  EXPECT_EQ(header,
            "test\tinput\tsink\tn\telapsed_median\tuser_median\tsystem_median\tcpu_pct_median\t"
            "mem_median\telapsed_min\telapsed_max\telapsed_mad\tmb_per_s\trelative");
}

TEST(Export, JsonHasHyperfineKeys) {
  const runfile::RunSet set = runfile::read_runs({iobench::test::kReportFixtures / "gnu-time.tsv"});
  std::ostringstream out;
  write_summary(report::summarize(set), Format::kJson, out);
  const auto doc = nlohmann::json::parse(out.str());
  ASSERT_EQ(doc["results"].size(), 3u);
  const auto& r = doc["results"][0];
  for (const char* key : {"command", "mean", "stddev", "median", "user", "system", "min", "max",
                          "times", "exit_codes"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["command"], "getlineInRawOut");
  EXPECT_DOUBLE_EQ(r["median"].get<double>(), 0.52);
  EXPECT_EQ(r["times"].size(), 3u);
  EXPECT_TRUE(doc["results"][2]["stddev"].is_null());  // one run: no standard deviation
}

TEST(Export, Trimmed) {
  EXPECT_EQ(trimmed(0.5, 6), "0.5");
  EXPECT_EQ(trimmed(2249.0, 1), "2249");
  EXPECT_EQ(trimmed(0.0000004, 6), "0");
  EXPECT_EQ(trimmed(-0.0000004, 6), "0");
  EXPECT_EQ(trimmed(1.23456789, 6), "1.234568");
  EXPECT_EQ(trimmed(std::nan(""), 6), "");
}

TEST(Export, UnknownFormatIsAUsageError) {
  try {
    (void)parse_format("html");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find("--format html"), std::string::npos);
  }
  EXPECT_EQ(parse_format("md"), Format::kMarkdown);
}

TEST(Export, MarkdownEscapesPipes) {
  Table t;
  t.header = {"name", "value"};
  t.numeric = {false, true};
  t.rows = {{"a|b", "1"}};
  std::ostringstream out;
  write_table(t, Format::kMarkdown, out);
  EXPECT_EQ(out.str(), "| name | value |\n| --- | ---: |\n| a\\|b | 1 |\n");
}

TEST(Export, PrettyAlignsUtf8ByCodePoints) {
  Table t;
  t.header = {"µs", "n"};
  t.numeric = {false, true};
  t.rows = {{"abc", "10"}};
  std::ostringstream out;
  write_table(t, Format::kPretty, out);
  EXPECT_EQ(out.str(), "µs    n\n───────\nabc  10\n");
}

}  // namespace
}  // namespace iobench::report
