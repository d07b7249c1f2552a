// The disturbance columns and status in the run file (docs/formats.md, "Run file"): written with
// three decimals, empty when unknown; a disturbed row is read like the other statuses but ok
// (counted, out of the samples), and a file written before the columns existed still reads.
#include <gtest/gtest.h>

#include <string>

#include "driver/runfile/reader.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench::runfile {
namespace {

std::string field(const std::string& header, const std::string& line, std::string_view name) {
  std::size_t index = 0;
  for (std::size_t start = 0, tab = 0; tab != std::string::npos; start = tab + 1, ++index) {
    tab = header.find_first_of("\t\n", start);
    if (header.substr(start, tab - start) == name) break;
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i < index; ++i) start = line.find('\t', start) + 1;
  return line.substr(start, line.find_first_of("\t\n", start) - start);
}

RunRow disturbed_row() {
  RunRow row;
  row.test = "a";
  row.elapsed_s = 0.5;
  row.input = "in.txt";
  row.sink = "pipe";
  row.repeat = 1;
  row.status = RunStatus::kDisturbed;
  row.exit_code = 0;
  row.others_cpu_s = 0.41234;
  row.steal_s = 0.02;
  return row;
}

TEST(DisturbedRows, FiguresAreWrittenInTheirColumnsAndEmptyWhenUnknown) {
  const std::string header = run_tsv_header({});
  const std::string line = format_run_row(disturbed_row(), {});
  EXPECT_EQ(field(header, line, "status"), "disturbed");
  EXPECT_EQ(field(header, line, "others_cpu_s"), "0.412");
  EXPECT_EQ(field(header, line, "steal_s"), "0.020");
  RunRow unknown = disturbed_row();
  unknown.others_cpu_s.reset();
  unknown.steal_s.reset();
  const std::string unknown_line = format_run_row(unknown, {});
  EXPECT_EQ(field(header, unknown_line, "others_cpu_s"), "");
  EXPECT_EQ(field(header, unknown_line, "steal_s"), "");
  EXPECT_EQ(parse_run_status("disturbed"), RunStatus::kDisturbed);
}

TEST(DisturbedRows, AreCountedAndLeftOutOfTheSamples) {
  RunRow ok = disturbed_row();
  ok.status = RunStatus::kOk;
  ok.elapsed_s = 0.25;
  const std::string text =
      run_tsv_header({}) + format_run_row(disturbed_row(), {}) + format_run_row(ok, {});
  const runfile::RunSet set = runfile::parse_runs(text, "disturbed.tsv");
  ASSERT_EQ(set.groups.size(), 1U);
  const runfile::Group& group = set.groups[0];
  EXPECT_EQ(group.ok_count(), 1U);
  EXPECT_EQ(group.excluded_count(), 1U);
  EXPECT_EQ(group.rows[static_cast<std::size_t>(RunStatus::kDisturbed)], 1U);
  EXPECT_EQ(group.samples[index(Metric::kElapsed)].front(), 0.25);
}

TEST(DisturbedRows, AFileWithoutTheColumnsStillReads) {
  // The 21 columns iobench wrote before others_cpu_s and steal_s.
  const std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\texit_code\tminflt\t"
      "majflt\tnvcsw\tnivcsw\tinblock\toublock\tbytes_out\tcache_pct\toutput_hash\thost\n"
      "a\t0.5\t0.1\t0.1\t40.0\t1000\tin.txt\tpipe\t1\tok\t0\t1\t0\t1\t1\t0\t0\t6\t100.0\tff\th\n";
  const runfile::RunSet set = runfile::parse_runs(text, "old.tsv");
  ASSERT_EQ(set.groups.size(), 1U);
  EXPECT_EQ(set.groups[0].ok_count(), 1U);
}

}  // namespace
}  // namespace iobench::runfile
