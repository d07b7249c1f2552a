// The run file's one table of standard columns (IOBENCH_RUN_COLUMNS in schema.hpp): each line
// makes a column's name, RunRow's member, the writer's field and the reader's parse, so every
// member written comes back as it was, under its own name, and the needs the readers and the
// history check come from the same lines.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "driver/history/run_file.hpp"
#include "driver/runfile/rows.hpp"
#include "driver/runfile/schema.hpp"
#include "driver/runfile/writer.hpp"

namespace iobench::runfile {
namespace {

// A value of each member's type that no default has, different for each column (`seed`): a
// member the writer or the reader left out, or wrote under another's name, would not come back.
std::string distinct(std::string*, int seed) {
  return "v" + std::to_string(seed);
}
double distinct(double*, int seed) {
  return 1 + seed / 2.0;  // exact in binary and in every codec's decimals (one, at least)
}
std::int64_t distinct(std::int64_t*, int seed) {
  return 1000 + seed;
}
std::uint64_t distinct(std::uint64_t*, int seed) {
  return 10000 + static_cast<std::uint64_t>(seed);
}
int distinct(int*, int seed) {
  return 100 + seed;
}
RunStatus distinct(RunStatus*, int /*seed*/) {
  return RunStatus::kDisturbed;
}
template <typename T>
std::optional<T> distinct(std::optional<T>*, int seed) {
  return distinct(static_cast<T*>(nullptr), seed);
}

RunRow row_of_distinct_values() {
  RunRow row;
  int seed = 0;
#define IOBENCH_SET_DISTINCT(type, member, name, codec, initial, need) \
  row.member = distinct(static_cast<decltype(row.member)*>(nullptr), ++seed);
  IOBENCH_RUN_COLUMNS(IOBENCH_SET_DISTINCT)
#undef IOBENCH_SET_DISTINCT
  return row;
}

TEST(RunColumnsTable, EveryMemberIsWrittenUnderItsNameAndReadBackAsItWas) {
  const RunRow written = row_of_distinct_values();
  const std::string text = run_tsv_header({}) + format_run_row(written, {});
  const RunFile file = parse_run_file(text, "t.tsv");
  ASSERT_EQ(file.rows.size(), 1U);
  const RunRow& read = file.rows[0];
  std::size_t checked = 0;
#define IOBENCH_EXPECT_BACK(type, member, name, codec, initial, need) \
  EXPECT_EQ(read.member, written.member) << (name);                   \
  EXPECT_EQ(file.columns.find(name), checked) << (name);              \
  ++checked;
  IOBENCH_RUN_COLUMNS(IOBENCH_EXPECT_BACK)
#undef IOBENCH_EXPECT_BACK
  EXPECT_EQ(checked, kStandardColumnCount);
  EXPECT_EQ(file.columns.size(), kStandardColumnCount) << "no column but the table's";
}

// An optional figure written empty reads back empty, whatever its member's initial value.
TEST(RunColumnsTable, AnEmptyOptionalComesBackEmpty) {
  RunRow written = row_of_distinct_values();
  written.status = RunStatus::kOk;
  written.exit_code.reset();
  written.bytes_out.reset();
  written.cache_pct.reset();
  written.others_cpu_s.reset();
  written.wait_cpu_s.reset();
  const RunFile file = parse_run_file(run_tsv_header({}) + format_run_row(written, {}), "t.tsv");
  ASSERT_EQ(file.rows.size(), 1U);
  EXPECT_FALSE(file.rows[0].exit_code);
  EXPECT_FALSE(file.rows[0].bytes_out);
  EXPECT_FALSE(file.rows[0].cache_pct);
  EXPECT_FALSE(file.rows[0].others_cpu_s);
  EXPECT_FALSE(file.rows[0].wait_cpu_s);
  EXPECT_EQ(file.rows[0].steal_s, written.steal_s);
}

// The needs: the six of GNU time's recipe first, required by every reader; the ten the history
// keeps for every row.
TEST(RunColumnsTable, TheNeedsComeFromTheTable) {
  EXPECT_EQ(std::vector<std::string_view>(kColumnsNeeded<RunColumnNeed::kRequired>.begin(),
                                          kColumnsNeeded<RunColumnNeed::kRequired>.end()),
            (std::vector<std::string_view>{"test", "elapsed", "user", "system", "cpu_pct", "mem"}));
  for (std::size_t c = 0; c < kColumnsNeeded<RunColumnNeed::kRequired>.size(); ++c)
    EXPECT_EQ(kStandardColumns[c], kColumnsNeeded<RunColumnNeed::kRequired>[c]);
  EXPECT_EQ(
      std::vector<std::string_view>(history::kStoredColumns.begin(), history::kStoredColumns.end()),
      (std::vector<std::string_view>{"input", "sink", "repeat", "status", "minflt", "majflt",
                                     "nvcsw", "nivcsw", "inblock", "oublock"}));
  EXPECT_EQ(standard_column("steal_s"), 22U);
  EXPECT_EQ(standard_column("no_such_column"), kStandardColumnCount);
  EXPECT_EQ(column("wait_cpu_s"), "wait_cpu_s");
}

}  // namespace
}  // namespace iobench::runfile
