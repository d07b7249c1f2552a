// The one reader (runfile/rows.hpp) on one real run file of every format ever written
// (tests/fixtures/runfiles/README.md): each row's figures exactly, and a figure the format lacks
// empty, never 0.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/history/run_file.hpp"
#include "driver/runfile/meta.hpp"
#include "driver/runfile/reader.hpp"
#include "driver/runfile/rows.hpp"
#include "tests/unit/fixture_paths.hpp"

namespace iobench::runfile {
namespace {

void expect_row(const RunRow& got, const RunRow& want, std::size_t i) {
  SCOPED_TRACE("row " + std::to_string(i + 1));
  EXPECT_EQ(got.test, want.test);
  EXPECT_EQ(got.elapsed_s, want.elapsed_s);
  EXPECT_EQ(got.user_s, want.user_s);
  EXPECT_EQ(got.system_s, want.system_s);
  EXPECT_EQ(got.cpu_pct, want.cpu_pct);
  EXPECT_EQ(got.max_rss_kib, want.max_rss_kib);
  EXPECT_EQ(got.input, want.input);
  EXPECT_EQ(got.sink, want.sink);
  EXPECT_EQ(got.repeat, want.repeat);
  EXPECT_EQ(got.status, want.status);
  EXPECT_EQ(got.exit_code, want.exit_code);
  EXPECT_EQ(got.minflt, want.minflt);
  EXPECT_EQ(got.majflt, want.majflt);
  EXPECT_EQ(got.nvcsw, want.nvcsw);
  EXPECT_EQ(got.nivcsw, want.nivcsw);
  EXPECT_EQ(got.inblock, want.inblock);
  EXPECT_EQ(got.oublock, want.oublock);
  EXPECT_EQ(got.bytes_out, want.bytes_out);
  EXPECT_EQ(got.cache_pct, want.cache_pct);
  EXPECT_EQ(got.output_hash, want.output_hash);
  EXPECT_EQ(got.host, want.host);
  EXPECT_EQ(got.counters, want.counters);
  EXPECT_EQ(got.counted_pct, want.counted_pct);
  EXPECT_EQ(got.others_cpu_s, want.others_cpu_s);
  EXPECT_EQ(got.steal_s, want.steal_s);
}

void expect_rows(const RunFile& file, const std::vector<RunRow>& want) {
  ASSERT_EQ(file.rows.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) expect_row(file.rows[i], want[i], i);
}

// A row of GNU time's file: its six figures, and nothing else.
RunRow gnu(const char* test, double elapsed_s, double cpu_pct, std::int64_t mem_kib) {
  RunRow row;
  row.test = test;
  row.elapsed_s = elapsed_s;
  row.cpu_pct = cpu_pct;
  row.max_rss_kib = mem_kib;
  row.minflt = row.majflt = row.nvcsw = row.nivcsw = row.inblock = row.oublock = std::nullopt;
  return row;
}

// A row that `iobench run` wrote of the tiny matrix (in.txt to a pipe, 18,893 bytes out).
struct Run {
  const char* test;
  double elapsed_s, user_s, system_s, cpu_pct;
  std::int64_t mem_kib;
  int repeat;
  RunStatus status;
  std::int64_t minflt, nvcsw, nivcsw;
};
RunRow ours(const Run& r) {
  RunRow row;
  row.test = r.test;
  row.elapsed_s = r.elapsed_s;
  row.user_s = r.user_s;
  row.system_s = r.system_s;
  row.cpu_pct = r.cpu_pct;
  row.max_rss_kib = r.mem_kib;
  row.input = "in.txt";
  row.sink = "pipe";
  row.repeat = r.repeat;
  row.status = r.status;
  row.exit_code = 0;
  row.minflt = r.minflt;
  row.nvcsw = r.nvcsw;
  row.nivcsw = r.nivcsw;
  row.bytes_out = 18893;
  row.cache_pct = 100.0;
  row.output_hash = "815488de708b8753";
  row.host = "vm";
  return row;
}
RunRow counted(RunRow row, std::uint64_t syscalls, std::uint64_t switches) {
  row.counters[index(Counter::kSyscalls)] = syscalls;
  row.counters[index(Counter::kContextSwitches)] = switches;
  row.counted_pct = 100.0;
  return row;
}
RunRow disturbance(RunRow row, double others_cpu_s) {
  row.others_cpu_s = others_cpu_s;
  row.steal_s = 0.0;
  return row;
}

constexpr auto kOk = RunStatus::kOk;
const std::vector<RunRow> kReadRaw{
    ours({"read-raw", 0.002310, 0.002133, 0.000000, 92.3, 3648, 1, kOk, 149, 1, 1}),
    ours({"read-raw", 0.002175, 0.001994, 0.000000, 91.7, 3576, 2, kOk, 152, 1, 1}),
    ours({"read-raw", 0.002480, 0.002238, 0.000000, 90.3, 3588, 3, kOk, 150, 1, 1})};
const std::vector<RunRow> kCat{
    ours({"cat", 0.001301, 0.001031, 0.000000, 79.2, 1772, 1, kOk, 89, 1, 0}),
    ours({"cat", 0.001142, 0.000989, 0.000000, 86.6, 1776, 2, kOk, 91, 1, 0}),
    ours({"cat", 0.001052, 0.000938, 0.000000, 89.2, 1676, 3, kOk, 91, 1, 0})};

TEST(RunFileFormats, GnuTimeOfTheDcatRecipe) {
  const RunFile file = read_run_file(iobench::test::kRunFileFixtures / "gnu-time/dcat.tsv");
  EXPECT_TRUE(file.counters.empty());
  EXPECT_FALSE(file.columns.has("status"));
  std::vector<RunRow> want{
      gnu("cat", 0.00, 33, 1556), gnu("wc-l", 0.01, 7, 1724),  gnu("true", 0.00, 33, 968),
      gnu("cat", 0.03, 2, 1756),  gnu("wc-l", 0.01, 10, 1912), gnu("true", 0.00, 100, 976),
      gnu("cat", 0.01, 7, 1676),  gnu("wc-l", 0.02, 3, 1804),  gnu("true", 0.01, 0, 968)};
  expect_rows(file, want);
  EXPECT_EQ(file.lines.back(), 10U);
}

TEST(RunFileFormats, BeforeTheCounterColumns034049d) {
  const RunFile file = read_run_file(iobench::test::kRunFileFixtures / "v1-034049d/s2.tsv");
  EXPECT_EQ(file.columns.size(), 21U);
  EXPECT_TRUE(file.counters.empty());
  expect_rows(file, kCat);  // no counters, no disturbance: all empty
}

TEST(RunFileFormats, BeforeTheDisturbanceColumns548687b) {
  const RunFile file = read_run_file(iobench::test::kRunFileFixtures / "v1-548687b/s1.tsv");
  EXPECT_EQ(file.counters, (std::vector<Counter>{Counter::kSyscalls, Counter::kContextSwitches}));
  std::vector<RunRow> want;
  want.reserve(kReadRaw.size());
  for (const RunRow& row : kReadRaw) want.push_back(counted(row, 2079, 1));
  expect_rows(file, want);
}

TEST(RunFileFormats, TodayWithCountersAndDisturbedRows) {
  const RunFile file = read_run_file(iobench::test::kRunFileFixtures / "v2-today/s1.tsv");
  EXPECT_EQ(file.counters, (std::vector<Counter>{Counter::kSyscalls, Counter::kContextSwitches}));
  RunRow first = ours(
      {"read-raw", 0.003639, 0.000000, 0.002411, 66.2, 3652, 1, RunStatus::kDisturbed, 151, 1, 3});
  RunRow third = ours(
      {"read-raw", 0.006240, 0.002222, 0.000000, 35.6, 3588, 2, RunStatus::kDisturbed, 151, 2, 1});
  const std::vector<RunRow> want{disturbance(counted(first, 2079, 3), 0.005),
                                 disturbance(counted(kReadRaw[0], 2079, 1), 0),
                                 disturbance(counted(third, 2079, 1), 0.009),
                                 disturbance(counted(kReadRaw[1], 2079, 1), 0.003),
                                 disturbance(counted(kReadRaw[2], 2079, 1), 0.003)};
  expect_rows(file, want);
}

TEST(RunFileFormats, TodayWithTheRunsOwnWait) {
  const RunFile file = read_run_file(iobench::test::kRunFileFixtures / "v3-wait/s1.tsv");
  EXPECT_EQ(file.columns.size(), 28U);  // the 25, two counters and counted_pct
  ASSERT_EQ(file.rows.size(), 3U);
  for (const RunRow& row : file.rows) {
    EXPECT_TRUE(row.wait_cpu_s.has_value()) << "measured on every run";
    EXPECT_GE(row.wait_cpu_s.value_or(-1), 0.0);
    EXPECT_FALSE(row.block_io_wait_s.has_value()) << "kernel.task_delayacct was 0: not accounted";
    EXPECT_TRUE(row.others_cpu_s.has_value());
  }
  const auto meta = read_meta_for(iobench::test::kRunFileFixtures / "v3-wait/s1.tsv");
  ASSERT_TRUE(meta && meta->options);
  EXPECT_EQ(meta->options->disturbance, "rerun");
  EXPECT_EQ(meta->options->disturbance_threshold_cpus, 0.1);
  EXPECT_EQ(meta->options->disturbance_wait_scope, "tree");
}

TEST(RunFileFormats, TheHistoryTakesEveryFormatOfRunButNotGnuTime) {
  for (const char* name :
       {"v1-034049d/s1.tsv", "v1-548687b/s2.tsv", "v2-today/s2.tsv", "v3-wait/s1.tsv"}) {
    const history::RunFileRows file =
        history::read_run_file(iobench::test::kRunFileFixtures / name);
    EXPECT_EQ(file.rows.size(), 3U) << name;
    EXPECT_EQ(file.hash.size(), 32U) << name;
  }
  try {
    (void)history::read_run_file(iobench::test::kRunFileFixtures / "gnu-time/dcat.tsv");
    FAIL() << "a GNU time file has no rusage to store";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dcat.tsv: no column 'input'"), std::string::npos)
        << e.what();
  }
}

TEST(RunFileFormats, GroupedByStatusTheDisturbedRowsAreAGroupWithTheirFiguresMarked) {
  const RunSet set = read_runs({iobench::test::kRunFileFixtures / "v2-today/s1.tsv"},
                               ReadOptions{{"test", "status"}});
  ASSERT_EQ(set.groups.size(), 2U);
  EXPECT_EQ(set.groups[0].key, (std::vector<std::string>{"read-raw", "disturbed"}));
  EXPECT_EQ(set.groups[0].ok_runs(), 0U);
  EXPECT_TRUE(set.groups[0].from_disturbed_runs);
  EXPECT_EQ(set.groups[0].metric(Metric::kElapsed), (std::vector<double>{0.003639, 0.006240}));
  EXPECT_FALSE(set.groups[1].from_disturbed_runs);
  EXPECT_EQ(set.groups[0].rows[static_cast<std::size_t>(RunStatus::kDisturbed)], 2U);
  EXPECT_EQ(set.groups[1].metric(Metric::kElapsed),
            (std::vector<double>{0.002310, 0.002175, 0.002480}));
}

TEST(RunFileFormats, ARowIsReadAsWrittenAndItsErrorsNameFileLineAndColumn) {
  const std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\trepeat\tnvcsw\r\nA\t1\t1\t0\t?%\t5\t1\t2\r\n"
      "A\t1\t1\t0\t50\t5\tx\t2\n";
  RowReader reader("f.tsv", text);
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.text(), "A\t1\t1\t0\t?%\t5\t1\t2");
  EXPECT_EQ(reader.row().cpu_pct, 100);  // GNU time's "?": (user + system) / elapsed
  EXPECT_EQ(reader.row().nvcsw, 2);
  EXPECT_FALSE(reader.row().minflt.has_value());
  try {
    (void)reader.next();
    FAIL() << "repeat 'x' read";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "f.tsv:3: column 'repeat': 'x' is not a repeat number");
  }
}

}  // namespace
}  // namespace iobench::runfile
