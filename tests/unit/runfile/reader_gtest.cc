// Reading run files: our TSV, the GNU time recipe's, any column order, and every malformed case.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/written_run.hpp"
#include "tests/unit/fixture_paths.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

// Parses `content` from memory as a run file called iobench-reader-NAME.
RunSet parse(const std::string& name, const std::string& content, const ReadOptions& options = {}) {
  return parse_runs(content, "iobench-reader-" + name, options);
}

const Group& find_group(const RunSet& set, std::string_view test) {
  for (const auto& g : set.groups) {
    if (g.key[0] == test) return g;
  }
  throw std::runtime_error("no group " + std::string(test));
}

// The message of the iobench::Error that reading `content` throws (exit code 2), or "".
std::string read_error(const std::string& name, const std::string& content,
                       const ReadOptions& options = {}) {
  try {
    (void)parse(name, content, options);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    return e.what();
  }
  return "";
}

const std::string kHeader6 = "test\telapsed\tuser\tsystem\tcpu_pct\tmem\n";

TEST(ResultsReader, ReadsOurRunFileGroupedByTestInputSinkHost) {
  const RunSet set = read_runs({iobench::test::kReportFixtures / "runs-small.tsv"});
  EXPECT_EQ(set.group_by, (std::vector<std::string>{"test", "input", "sink", "host"}));
  ASSERT_EQ(set.groups.size(), 3u);
  EXPECT_EQ(set.rows, 15u);
  const Group& getline = find_group(set, "getlineInRawOut");
  EXPECT_EQ(getline.ok_count(), 5u);
  EXPECT_EQ(getline.rows[1], 1u);  // failed
  EXPECT_EQ(getline.excluded_count(), 1u);
  EXPECT_EQ(getline.metric(Metric::kElapsed),
            (std::vector<double>{0.0125, 0.0120, 0.0131, 0.0122, 0.0124}));
  EXPECT_EQ(getline.metric(Metric::kMem)[1], 1810);
  EXPECT_EQ(getline.input, "tests/fixtures/reports/input-10k.txt");
  EXPECT_EQ(getline.exit_codes, (std::vector<int>(5, 0)));
  const Group& wc = find_group(set, "wc");
  EXPECT_EQ(wc.ok_count(), 3u);
  EXPECT_EQ(wc.rows[4], 1u);  // mismatch
}

TEST(ResultsReader, ReadsTheGnuTimeRecipeFile) {
  const RunSet set = read_runs({iobench::test::kReportFixtures / "gnu-time.tsv"});
  EXPECT_EQ(set.group_by, (std::vector<std::string>{"test"}));
  ASSERT_EQ(set.groups.size(), 3u);
  const Group& getline = find_group(set, "getlineInRawOut");
  EXPECT_EQ(getline.metric(Metric::kCpuPct), (std::vector<double>{98, 98, 96}));
  EXPECT_EQ(getline.metric(Metric::kMem), (std::vector<double>{2048, 2052, 2040}));
  const Group& read = find_group(set, "readInBufOut");
  EXPECT_DOUBLE_EQ(read.metric(Metric::kElapsed)[2], 0.22);  // written as 0:00.22 (%E)
  const Group& wc = find_group(set, "wc");
  EXPECT_DOUBLE_EQ(wc.metric(Metric::kCpuPct)[0], 0);  // "?%": elapsed was 0
}

TEST(ResultsReader, ColumnsInAnyOrderAndAnySubsetAfterTheFirstSix) {
  const RunSet set = parse("order.tsv",
                           "host\tmem\tstatus\tuser\ttest\tsystem\telapsed\tcpu_pct\n"
                           "h1\t100\tok\t0.1\tA\t0.05\t0.2\t75\n"
                           "h1\t110\tok\t0.1\tA\t0.05\t0.3\t50\n"
                           "h2\t120\ttimeout\t0.1\tA\t0.05\t9.0\t1\n");
  EXPECT_EQ(set.group_by, (std::vector<std::string>{"test", "host"}));
  ASSERT_EQ(set.groups.size(), 2u);
  EXPECT_EQ(set.groups[0].metric(Metric::kElapsed), (std::vector<double>{0.2, 0.3}));
  EXPECT_EQ(set.groups[0].metric(Metric::kMem), (std::vector<double>{100, 110}));
  EXPECT_EQ(set.groups[1].ok_count(), 0u);
  EXPECT_EQ(set.groups[1].rows[3], 1u);  // timeout
}

TEST(ResultsReader, MergesFilesAndFillsMissingGroupColumns) {
  const RunSet set = read_runs({iobench::test::kReportFixtures / "runs-small.tsv",
                                iobench::test::kReportFixtures / "gnu-time.tsv"},
                               ReadOptions{{"test", "sink"}});
  // runs-small: 3 tests with sink pipe; gnu-time: 3 tests without sink; getlineInRawOut twice.
  ASSERT_EQ(set.groups.size(), 6u);
  EXPECT_EQ(set.groups[3].key, (std::vector<std::string>{"getlineInRawOut", ""}));
  EXPECT_EQ(set.files.size(), 2u);
}

TEST(ResultsReader, ExplicitGroupByAnyColumn) {
  const RunSet set =
      read_runs({iobench::test::kReportFixtures / "runs-small.tsv"}, ReadOptions{{"sink"}});
  ASSERT_EQ(set.groups.size(), 1u);
  EXPECT_EQ(set.groups[0].ok_count(), 13u);
  EXPECT_EQ(set.groups[0].excluded_count(), 2u);
  EXPECT_EQ(set.groups[0].input, "tests/fixtures/reports/input-10k.txt");
  EXPECT_FALSE(set.groups[0].mixed_inputs);
}

TEST(ResultsReader, CrlfAndBlankLinesAndNoFinalNewline) {
  const RunSet set = parse("crlf.tsv",
                           "test\telapsed\tuser\tsystem\tcpu_pct\tmem\r\n"
                           "A\t1.5\t1\t0.5\t100\t10\r\n"
                           "\r\n"
                           "\n"
                           "A\t2.5\t1\t0.5\t60\t20");
  ASSERT_EQ(set.groups.size(), 1u);
  EXPECT_EQ(set.groups[0].metric(Metric::kElapsed), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(set.groups[0].metric(Metric::kMem), (std::vector<double>{10, 20}));
}

TEST(ResultsReader, CounterColumnsAreMetricsAndAnEmptyCellIsNotCounted) {
  const RunSet set = parse("counters.tsv",
                           "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\tsyscalls\t"
                           "instructions\tcounted_pct\n"
                           "A\t1\t1\t0\t100\t5\tok\t1200\t\t100.0\n"
                           "A\t1\t1\t0\t100\t5\tok\t0\t\t\n"
                           "A\t1\t1\t0\t100\t5\tfailed\t99\t\t\n"
                           "A\t1\t1\t0\t100\t5\tok\t1300\t4e9\t50.0\n");
  EXPECT_TRUE(set.has_metric[index(metric_of(Counter::kSyscalls))]);
  EXPECT_TRUE(set.has_metric[index(metric_of(Counter::kInstructions))]);
  EXPECT_FALSE(set.has_metric[index(metric_of(Counter::kCycles))]);
  const Group& a = set.groups.at(0);
  EXPECT_EQ(a.ok_count(), 3u);
  EXPECT_EQ(a.metric(metric_of(Counter::kSyscalls)), (std::vector<double>{1200, 0, 1300}));
  EXPECT_EQ(a.metric(metric_of(Counter::kInstructions)), (std::vector<double>{4e9}));
  EXPECT_TRUE(a.metric(metric_of(Counter::kCycles)).empty());
}

TEST(ResultsReader, FilesWithAndWithoutCountersMerge) {
  std::vector<RunFileText> files{
      {"old.tsv", kHeader6 + "A\t1\t1\t0\t100\t5\n", ""},
      {"new.tsv",
       "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tsyscalls\tcounted_pct\n"
       "A\t2\t1\t0\t100\t5\t40\t100.0\n",
       ""}};
  const RunSet set = parse_runs(files);
  ASSERT_EQ(set.groups.size(), 1u);
  EXPECT_EQ(set.groups[0].metric(Metric::kElapsed), (std::vector<double>{1, 2}));
  EXPECT_EQ(set.groups[0].metric(metric_of(Counter::kSyscalls)), (std::vector<double>{40}));
  EXPECT_EQ(set.files, (std::vector<std::string>{"old.tsv", "new.tsv"}));
}

TEST(ResultsReader, ChecksTheCacheStateAgainstTheFilesMode) {
  const std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\tcache_pct\n"
      "A\t1\t1\t0\t100\t5\tok\t0.0\n"
      "A\t1\t1\t0\t100\t5\tok\t5.0\n"    // the bound itself holds
      "A\t1\t1\t0\t100\t5\tok\t40.0\n"   // not cold
      "A\t1\t1\t0\t100\t5\tok\t100.0\n"  // not cold, the worst
      "A\t1\t1\t0\t100\t5\tfailed\t100.0\n"
      "A\t1\t1\t0\t100\t5\tok\t\n";  // not a file: not checked
  const RunSet cold = parse_runs({{"cold.tsv", text, "cold"}});
  EXPECT_EQ(cold.groups[0].cache.mode, "cold");
  EXPECT_EQ(cold.groups[0].cache.checked, 4u);
  EXPECT_EQ(cold.groups[0].cache.off, 2u);
  EXPECT_EQ(cold.groups[0].cache.worst_pct, 100);
  const RunSet warm = parse_runs({{"warm.tsv", text, "warm"}});
  EXPECT_EQ(warm.groups[0].cache.off, 3u);  // 0, 5 and 40 are below 95
  EXPECT_EQ(warm.groups[0].cache.worst_pct, 0);
  const RunSet unknown = parse_runs({{"x.tsv", text, ""}});
  EXPECT_EQ(unknown.groups[0].cache.checked, 0u);
  const RunSet none = parse_runs({{"none.tsv", text, "none"}});
  EXPECT_EQ(none.groups[0].cache.off, 0u);
}

TEST(ResultsReader, CacheModeComesFromTheMetaFileBesideTheRunFile) {
  const iobench::test::TempDir dir("reader-meta");
  std::filesystem::create_directories(dir / "meta");
  std::ofstream(dir / "meta" / "x-1.json") << R"({"config": {"name": "x", "cache": "cold"}})";
  std::ofstream(dir / "meta" / "x-2.json") << R"({"config": {"name": "x"}})";
  std::ofstream(dir / "meta" / "x-3.json") << "{not json";
  EXPECT_EQ(cache_mode_from_meta(dir / "x-1.tsv"), "cold");
  EXPECT_EQ(cache_mode_from_meta(dir / "x-2.tsv"), "warm");  // the config's default
  EXPECT_EQ(cache_mode_from_meta(dir / "x-3.tsv"), "");
  EXPECT_EQ(cache_mode_from_meta(dir / "x-4.tsv"), "");  // no meta file
  EXPECT_EQ(cache_mode_from_meta("-"), "");
}

// The --filter a run was made with: what tells summarize that a baseline without runs was left
// out by it (docs/reports.md, `relative`).
TEST(ResultsReader, TheFilterComesFromTheMetaFileToo) {
  const iobench::test::TempDir dir("reader-filter");
  std::filesystem::create_directories(dir / "meta");
  std::ofstream(dir / "meta" / "x-1.json")
      << R"({"config": {"name": "x"}, "options": {"filter": "oth", "repeats": 3, "shard": "1/1"}})";
  const std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\n"
      "other\t1\t0.5\t0.5\t100\t5\tin.txt\tpipe\tok\n";
  std::ofstream(dir / "x-1.tsv") << text;
  EXPECT_EQ(read_runs({dir / "x-1.tsv"}).filters, std::vector<std::string>{"oth"});
  WrittenRun written;
  written.runs_file = dir / "x-1.tsv";
  written.text = text;
  written.meta.emplace().options.emplace().filter = "oth";
  EXPECT_EQ(group_written_run(written).filters, std::vector<std::string>{"oth"});
}

TEST(ResultsReader, HeaderOnlyGivesNoGroups) {
  EXPECT_TRUE(parse("header-only.tsv", kHeader6).groups.empty());
}

TEST(ResultsReader, ParsesSeconds) {
  double s = -1;
  EXPECT_TRUE(parse_seconds("0.512497", s));
  EXPECT_DOUBLE_EQ(s, 0.512497);
  EXPECT_TRUE(parse_seconds("1:02.5", s));
  EXPECT_DOUBLE_EQ(s, 62.5);
  EXPECT_TRUE(parse_seconds("1:00:01", s));
  EXPECT_DOUBLE_EQ(s, 3601);
  EXPECT_TRUE(parse_seconds("1e-3", s));
  EXPECT_DOUBLE_EQ(s, 0.001);
  for (const char* bad : {"", "-1", "abc", "1.5s", "nan", "inf", "1:2:3:4", "1.5:00", ":5", "1:"}) {
    EXPECT_FALSE(parse_seconds(bad, s)) << bad;
  }
}

TEST(ResultsReader, FastDecimalPathRoundsLikeStrtod) {
  const RunSet set = parse("decimals.tsv", kHeader6 + "A\t0.1\t0.3\t123456.789012\t99.9\t4\n");
  EXPECT_EQ(set.groups[0].metric(Metric::kElapsed)[0], 0.1);
  EXPECT_EQ(set.groups[0].metric(Metric::kUser)[0], 0.3);
  EXPECT_EQ(set.groups[0].metric(Metric::kSystem)[0], 123456.789012);
  EXPECT_EQ(set.groups[0].metric(Metric::kCpuPct)[0], 99.9);
}

// --- malformed input: one error line naming the file, the line and the column, exit 2 ---

TEST(ResultsReaderErrors, MissingFile) {
  try {
    (void)read_runs({"/nonexistent/runs.tsv"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), kExitUsage);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/runs.tsv: cannot open"), std::string::npos);
  }
}

TEST(ResultsReaderErrors, EmptyFileHasNoHeader) {
  EXPECT_NE(read_error("empty.tsv", "").find("iobench-reader-empty.tsv:1: no header line"),
            std::string::npos);
}

TEST(ResultsReaderErrors, MissingRequiredColumn) {
  const std::string msg =
      read_error("no-mem.tsv", "test\telapsed\tuser\tsystem\tcpu_pct\nA\t1\t1\t0\t100\n");
  EXPECT_NE(msg.find("no-mem.tsv:1: column 'mem': missing from the header"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, HeaderlessDataIsNamedAsSuch) {
  const std::string msg = read_error("headerless.tsv", "A\t0.5\t0.4\t0.1\t99%\t2048\n");
  EXPECT_NE(msg.find("the first line looks like data"), std::string::npos) << msg;
}

TEST(ResultsReaderErrors, DuplicateColumn) {
  const std::string msg =
      read_error("dup.tsv", "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tuser\n");
  EXPECT_NE(msg.find("dup.tsv:1: column 'user' appears twice"), std::string::npos) << msg;
}

TEST(ResultsReaderErrors, EmptyColumnName) {
  const std::string msg = read_error("noname.tsv", "test\telapsed\t\tuser\tsystem\tcpu_pct\tmem\n");
  EXPECT_NE(msg.find("noname.tsv:1: column 3 has no name"), std::string::npos) << msg;
}

TEST(ResultsReaderErrors, TooFewFields) {
  const std::string msg = read_error("short.tsv", kHeader6 + "A\t1\t1\t0\t100\t5\nA\t1\t1\t0\n");
  EXPECT_NE(
      msg.find("short.tsv:3: 4 fields, but the header has 6 columns (column 'cpu_pct' is missing)"),
      std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, TooManyFields) {
  const std::string msg = read_error("long.tsv", kHeader6 + "A\t1\t1\t0\t100\t5\t7\n");
  EXPECT_NE(msg.find("long.tsv:2: 7 fields, but the header has 6 columns"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, ElapsedNotANumber) {
  const std::string msg = read_error("nan.tsv", kHeader6 + "A\tfast\t1\t0\t100\t5\n");
  EXPECT_NE(msg.find("nan.tsv:2: column 'elapsed': 'fast' is not a time in seconds"),
            std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, NegativeTime) {
  const std::string msg = read_error("neg.tsv", kHeader6 + "A\t1\t1\t-0.5\t100\t5\n");
  EXPECT_NE(msg.find("neg.tsv:2: column 'system': '-0.5' is not a time"), std::string::npos) << msg;
}

TEST(ResultsReaderErrors, BadCpuPercent) {
  const std::string msg = read_error("cpu.tsv", kHeader6 + "A\t1\t1\t0\tlots%\t5\n");
  EXPECT_NE(msg.find("cpu.tsv:2: column 'cpu_pct': 'lots%' is not a percentage"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, BadMem) {
  const std::string msg = read_error("mem.tsv", kHeader6 + "A\t1\t1\t0\t100\t5MB\n");
  EXPECT_NE(msg.find("mem.tsv:2: column 'mem': '5MB' is not a size in KiB"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, EmptyMetricOnAnOkRow) {
  const std::string msg = read_error("empty-field.tsv",
                                     "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\n"
                                     "A\t\t1\t0\t100\t5\tok\n");
  EXPECT_NE(msg.find("empty-field.tsv:2: column 'elapsed': empty, but the run's status is ok"),
            std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, EmptyMetricOnAFailedRowIsFine) {
  const RunSet set = parse("failed-empty.tsv",
                           "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\n"
                           "A\t\t\t\t\t\terror\n");
  EXPECT_EQ(set.groups[0].rows[5], 1u);
  EXPECT_EQ(set.groups[0].ok_count(), 0u);
}

TEST(ResultsReaderErrors, BadCounter) {
  const std::string msg = read_error("counter.tsv",
                                     "test\telapsed\tuser\tsystem\tcpu_pct\tmem\t"
                                     "context_switches\nA\t1\t1\t0\t100\t5\t-3\n");
  EXPECT_NE(msg.find("counter.tsv:2: column 'context_switches': '-3' is not a count"),
            std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, UnknownStatus) {
  const std::string msg = read_error("status.tsv",
                                     "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tstatus\n"
                                     "A\t1\t1\t0\t100\t5\tcrashed\n");
  EXPECT_NE(msg.find("status.tsv:2: column 'status': unknown status 'crashed'"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, BadExitCode) {
  const std::string msg = read_error("exit.tsv",
                                     "test\telapsed\tuser\tsystem\tcpu_pct\tmem\texit_code\n"
                                     "A\t1\t1\t0\t100\t5\tzero\n");
  EXPECT_NE(msg.find("exit.tsv:2: column 'exit_code': 'zero' is not an integer"), std::string::npos)
      << msg;
}

TEST(ResultsReaderErrors, EmptyTestName) {
  const std::string msg = read_error("notest.tsv", kHeader6 + "\t1\t1\t0\t100\t5\n");
  EXPECT_NE(msg.find("notest.tsv:2: column 'test': empty test name"), std::string::npos) << msg;
}

TEST(ResultsReaderErrors, UnknownGroupByColumn) {
  const std::string msg = read_error("groupby.tsv", kHeader6, ReadOptions{{"test", "color"}});
  EXPECT_NE(msg.find("--group-by: no file has a column 'color'"), std::string::npos) << msg;
}

TEST(RunSet, CounterMetricsAreThoseWithAColumnInSchemaOrderAndNoTimeMetric) {
  RunSet set;
  set.has_metric[index(Metric::kElapsed)] = true;
  set.has_metric[index(metric_of(Counter::kCycles))] = true;
  set.has_metric[index(metric_of(Counter::kSyscalls))] = true;
  EXPECT_EQ(set.counter_metrics(),
            (std::vector<Metric>{metric_of(Counter::kSyscalls), metric_of(Counter::kCycles)}));
  EXPECT_TRUE(RunSet{}.counter_metrics().empty());
}

}  // namespace
}  // namespace iobench::runfile
