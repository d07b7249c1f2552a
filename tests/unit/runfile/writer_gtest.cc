// The run file: exact header, row format, and never overwriting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "driver/runfile/writer.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::runfile {
namespace {

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RunTsv, HeaderBeginsWithTheGnuTimeRecipeColumns) {
  EXPECT_EQ(run_tsv_header(),
            "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\texit_code\t"
            "minflt\tmajflt\tnvcsw\tnivcsw\tinblock\toublock\tbytes_out\tcache_pct\toutput_"
            "hash\thost\tothers_cpu_s\tsteal_s\twait_cpu_s\tblock_io_wait_s\n");
}

TEST(RunTsv, FormatsARow) {
  RunRow row;
  row.test = "getline\traw";  // a tab must not split the field
  row.elapsed_s = 1.5;
  row.user_s = 1.0;
  row.system_s = 0.25;
  row.cpu_pct = 83.3333;
  row.max_rss_kib = 1234;
  row.input = "data/x.tsv";
  row.sink = "pipe";
  row.repeat = 2;
  row.status = RunStatus::kMismatch;
  row.exit_code = 0;
  row.minflt = 10;
  row.bytes_out = 99;
  row.cache_pct = 100;
  row.output_hash = "00ff";
  row.host = "h";
  EXPECT_EQ(
      format_run_row(row),
      "getline raw\t1.500000\t1.000000\t0.250000\t83.3\t1234\tdata/x.tsv\tpipe\t2\tmismatch\t0\t"
      "10\t0\t0\t0\t0\t0\t99\t100.0\t00ff\th\t\t\t\t\n");
  // The run's own wait to the microsecond: a 9 ms run's figure is a fraction of a millisecond.
  row.wait_cpu_s = 0.0021;
  row.block_io_wait_s = 0.5;
  EXPECT_TRUE(format_run_row(row).ends_with("\th\t\t\t0.002100\t0.500000\n"))
      << format_run_row(row);
  row.exit_code.reset();
  row.bytes_out.reset();
  row.cache_pct.reset();
  row.status = RunStatus::kError;
  EXPECT_NE(format_run_row(row).find("\terror\t\t10\t"), std::string::npos);
}

TEST(RunTsv, CounterColumnsFollowTheStandardOnesInSchemaOrder) {
  // Asked in another order, written in schema order, each once, then counted_pct.
  const std::vector<Counter> asked{Counter::kInstructions, Counter::kSyscalls,
                                   Counter::kContextSwitches, Counter::kSyscalls};
  EXPECT_EQ(run_tsv_header(asked),
            "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\texit_code\t"
            "minflt\tmajflt\tnvcsw\tnivcsw\tinblock\toublock\tbytes_out\tcache_pct\toutput_"
            "hash\thost\tothers_cpu_s\tsteal_s\twait_cpu_s\tblock_io_wait_s\t"
            "syscalls\tcontext_switches\tinstructions\tcounted_pct\n");
  RunRow row;
  row.test = "t";
  row.status = RunStatus::kOk;
  row.counters[index(Counter::kSyscalls)] = 1200;
  row.counters[index(Counter::kContextSwitches)] = 0;  // counted, and zero
  row.counters[index(Counter::kCycles)] = 5;           // not asked for: not written
  row.counted_pct = 62.5;
  // instructions not counted: an empty cell, never 0.
  EXPECT_EQ(format_run_row(row, asked),
            "t\t0.000000\t0.000000\t0.000000\t0.0\t0\t\t\t0\tok\t\t0\t0\t0\t0\t0\t0\t\t\t\t"
            "\t\t\t\t\t1200\t0\t\t62.5\n");
  row.counted_pct.reset();
  EXPECT_TRUE(format_run_row(row, asked).ends_with("\t1200\t0\t\t\n"));
}

TEST(RunTsvWriter, WritesTheCounterColumnsItWasGiven) {
  const iobench::test::TempDir dir("tsv");
  const auto path = dir / "runs.tsv";
  {
    RunTsvWriter writer(path, {Counter::kPageFaults, Counter::kSyscalls});
    EXPECT_EQ(writer.counters(), (std::vector<Counter>{Counter::kSyscalls, Counter::kPageFaults}));
    RunRow row;
    row.test = "t";
    row.counters[index(Counter::kPageFaults)] = 7;
    writer.append(row);
    EXPECT_EQ(slurp(path),
              run_tsv_header(writer.counters()) + format_run_row(row, writer.counters()));
    EXPECT_TRUE(slurp(path).ends_with("\t\t7\t\n"));
  }
}

TEST(RunTsv, StatusNamesRoundTrip) {
  for (const auto status : {RunStatus::kOk, RunStatus::kFailed, RunStatus::kSignal,
                            RunStatus::kTimeout, RunStatus::kMismatch, RunStatus::kError}) {
    EXPECT_EQ(parse_run_status(to_string(status)), status);
  }
  EXPECT_FALSE(parse_run_status("OK").has_value());
}

TEST(RunTsvWriter, WritesHeaderAndRowsAsTheyCome) {
  const iobench::test::TempDir dir("tsv");
  const auto path = dir / "runs.tsv";
  {
    RunTsvWriter writer(path);
    EXPECT_EQ(slurp(path), run_tsv_header());  // on disk before any run
    RunRow row;
    row.test = "t";
    writer.append(row);
    EXPECT_EQ(slurp(path), run_tsv_header() + format_run_row(row));
  }
}

TEST(RunTsvWriter, NeverOverwritesNorFollowsASymlink) {
  const iobench::test::TempDir dir("tsv");
  const auto path = dir / "runs.tsv";
  { std::ofstream(path) << "precious\n"; }
  try {
    RunTsvWriter writer(path);
    FAIL() << "an existing file was opened";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("never overwritten"), std::string::npos) << e.what();
  }
  EXPECT_EQ(slurp(path), "precious\n");
  std::filesystem::create_symlink(path, dir / "link.tsv");
  EXPECT_THROW(RunTsvWriter(dir / "link.tsv"), Error);
  EXPECT_EQ(slurp(path), "precious\n");
}

TEST(RunTsvWriter, AnUnwritableFolderIsAnError) {
  EXPECT_THROW(RunTsvWriter("/nonexistent-folder/runs.tsv"), Error);
}

}  // namespace
}  // namespace iobench::runfile
