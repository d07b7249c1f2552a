// The two-level warning of run and bench (docs/reports.md, "Two levels"): the two levels, the
// runs when each held, what moved with them; a handful of cells named, the rest counted.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/report/two_levels_warnings.hpp"

namespace iobench::report {
namespace {

const char* const kTwoLevelsHeader =
    "test\telapsed\tuser\tsystem\tcpu_pct\tmem\tinput\tsink\trepeat\tstatus\tnvcsw\tnivcsw\t"
    "others_cpu_s\n";

// A row of cell b on data/in.txt, pipe sink.
std::string row(double elapsed_ms, int repeat, double others_s, const char* status = "ok",
                const char* test = "b") {
  return fmt::format("{}\t{}\t0.030\t0.002\t60\t1\tdata/in.txt\tpipe\t{}\t{}\t4\t1\t{}\n", test,
                     elapsed_ms / 1000, repeat, status, others_s);
}

TEST(TwoLevelWarnings, NamesTheLevelsTheirRunsAndWhatMovedWithThem) {
  std::string text = kTwoLevelsHeader;
  const double first[] = {38, 41, 44, 40, 42};
  const double second[] = {54, 57, 59, 55, 56};
  for (int i = 0; i < 5; ++i) text += row(first[i], i + 1, 0.001 * (i % 2));
  text += row(90, 6, 0.300, "disturbed");  // out of the levels, as out of every figure
  for (int i = 0; i < 5; ++i) text += row(second[i], i + 6, 0.030 + 0.001 * (i % 2));
  text += row(10, 1, 0, "ok", "a");  // one run: no levels
  const std::vector<std::string> lines = two_level_warnings(text, "x.tsv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(
      lines[0],
      "b on data/in.txt (pipe sink): its ok runs fell into two levels, 41.00 ms over runs 1–5 "
      "(repeats 1–5; 38.00 ms to 44.00 ms), then 56.00 ms over runs 6–10 (repeats 6–10; "
      "54.00 ms to 59.00 ms); moved with it: others' CPU 0 µs → 30.00 ms; steady: user, "
      "system, voluntary context switches, involuntary context switches");
}

TEST(TwoLevelWarnings, SaysSoWhenNothingRecordedMovedWithTheTime) {
  std::string text = kTwoLevelsHeader;
  for (int i = 0; i < 8; ++i) text += row(i < 4 ? 40 + i % 2 : 50 + i % 2, i + 1, 0);
  const std::vector<std::string> lines = two_level_warnings(text, "x.tsv");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("over runs 1–4 (repeats 1–4; "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("; nothing the rows record moved with it (others' CPU, user, system, "
                          "voluntary context switches, involuntary context switches): the "
                          "machine, or something no column records"),
            std::string::npos)
      << lines[0];
}

TEST(TwoLevelWarnings, OneLevelOrAFileWithoutTimesSaysNothing) {
  std::string text = kTwoLevelsHeader;
  for (int i = 0; i < 10; ++i) text += row(40 + i % 3, i + 1, 0);
  EXPECT_TRUE(two_level_warnings(text, "x.tsv").empty());
  EXPECT_TRUE(two_level_warnings(kTwoLevelsHeader, "x.tsv").empty());
}

TEST(TwoLevelWarnings, AHandfulOfCellsIsNamedAndTheRestCounted) {
  const std::vector<std::string> seven{"1", "2", "3", "4", "5", "6", "7"};
  const std::vector<std::string> few = name_a_few(seven, 5, "results/meta/x.json");
  ASSERT_EQ(few.size(), 6u);
  EXPECT_EQ(few[4], "5");
  EXPECT_EQ(few[5], "… and 2 more cells fell into two levels; all in results/meta/x.json");
  EXPECT_EQ(name_a_few({"1", "2", "3", "4", "5", "6"}, 5, "m.json").back(),
            "… and 1 more cell fell into two levels; all in m.json");
  EXPECT_EQ(name_a_few({"1", "2"}, 5, "m.json"), (std::vector<std::string>{"1", "2"}));
}

}  // namespace
}  // namespace iobench::report
