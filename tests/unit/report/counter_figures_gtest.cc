// Counter medians and the figures derived from them, in every export, with exact values.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "driver/report/counter_figures.hpp"
#include "driver/report/export.hpp"
#include "driver/report/summary.hpp"

namespace iobench::report {
namespace {

// 10,000 bytes, 1,000 lines.
const std::string kInput =
    std::string(IOBENCH_SOURCE_DIR) + "/tests/fixtures/reports/input-10k.txt";

std::string counted_runs() {
  std::string text =
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\tstatus\tsyscalls\tcycles\t"
      "instructions\tcounted_pct\n";
  const char* rows[] = {"2000\t500000\t1000000\t100.0", "2100\t500000\t1200000\t100.0",
                        "2050\t550000\t1100000\t80.0", "\t\t\t"};  // the last: not counted
  for (const char* counters : rows) {
    text += "A\t1\t0.5\t0.5\t100\t5\t" + kInput + "\tpipe\tok\t" + counters + "\n";
  }
  return text;
}

TEST(CounterFigures, DerivedFromTheMedians) {
  const CounterFigures f = derive_counter_figures(2050, 1.1e6, 5e5, 10000, 1000);
  EXPECT_DOUBLE_EQ(*f.syscalls_per_mib, 2050 / (10000.0 / 1048576));
  EXPECT_DOUBLE_EQ(*f.syscalls_per_line, 2.05);
  EXPECT_DOUBLE_EQ(*f.instructions_per_byte, 110);
  EXPECT_DOUBLE_EQ(*f.ipc, 2.2);
  const CounterFigures none = derive_counter_figures(NAN, NAN, 5e5, std::nullopt, std::nullopt);
  EXPECT_FALSE(none.syscalls_per_mib || none.syscalls_per_line || none.instructions_per_byte ||
               none.ipc);
  EXPECT_FALSE(derive_counter_figures(1, 1, 0, 0, 0).ipc);  // no division by zero
}

TEST(CounterFigures, SummaryAndExportsCarryThem) {
  const auto set = runfile::parse_runs(counted_runs(), "counted.tsv");
  const Summary s = summarize(set);
  ASSERT_EQ(s.groups.size(), 1u);
  const GroupStats& g = s.groups[0];
  EXPECT_EQ(g.metric(metric_of(runfile::Counter::kSyscalls)).n,
            3u);  // the empty cells are not zeros
  EXPECT_EQ(g.metric(metric_of(runfile::Counter::kSyscalls)).median, 2050);
  EXPECT_EQ(g.input_lines, 1000u);
  EXPECT_DOUBLE_EQ(*g.counter_figures.syscalls_per_line, 2.05);
  EXPECT_DOUBLE_EQ(*g.counter_figures.ipc, 2.2);

  std::ostringstream pretty;
  report::write_summary(s, report::Format::kPretty, pretty);
  const std::string p = pretty.str();
  EXPECT_NE(
      p.find("  syscalls  cycles  instructions  syscalls/MiB  syscalls/line  instr/byte   IPC\n"),
      std::string::npos)
      << p;
  EXPECT_NE(
      p.find("      2050  500000       1100000      214958.1          2.050      110.00  2.20\n"),
      std::string::npos)
      << p;

  std::ostringstream json;
  report::write_summary(s, report::Format::kJson, json);
  const std::string j = json.str();
  EXPECT_NE(j.find("\"counters\": {\n          \"syscalls\": 2050.0,\n          \"cycles\": "
                   "500000.0,\n          \"instructions\": 1100000.0\n        }"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"syscalls_per_line\": 2.05,"), std::string::npos) << j;
  EXPECT_NE(j.find("\"ipc\": 2.2"), std::string::npos) << j;
  EXPECT_NE(j.find("\"input_lines\": 1000"), std::string::npos) << j;

  std::ostringstream tsv;
  report::write_summary(s, report::Format::kTsv, tsv);
  const std::string t = tsv.str();
  EXPECT_NE(t.find("\tsyscalls_median\t"), std::string::npos);
  EXPECT_TRUE(t.find("\tsyscalls_per_mib\tsyscalls_per_line\tinstructions_per_byte\tipc\n") !=
              std::string::npos)
      << t;
  EXPECT_TRUE(t.ends_with("\t214958.08\t2.05\t110\t2.2\n")) << t;
}

TEST(CounterFigures, FilesWithoutCountersHaveNoCounterColumns) {
  const auto set = runfile::parse_runs(
      "test\telapsed\tuser\tsystem\tcpu_pct\tmem\nA\t1\t1\t0\t100\t5\n", "plain.tsv");
  std::ostringstream pretty;
  report::write_summary(summarize(set), report::Format::kPretty, pretty);
  EXPECT_EQ(pretty.str().find("syscalls"), std::string::npos);
}

}  // namespace
}  // namespace iobench::report
