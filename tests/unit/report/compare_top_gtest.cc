// compare's pretty and markdown tables at many groups: one section per input and sink; --top N
// shows the slowdowns first, the largest first, then counts the rest; tsv and json keep every
// row in the base file's order (docs/reports.md, "Tables at scale").
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "driver/report/compare.hpp"

namespace iobench::report {
namespace {

Row row_of(std::string test, std::string sink, double ratio, Verdict verdict) {
  Row row;
  row.key = {std::move(test), "in.txt", std::move(sink)};
  row.base_n = 10;
  row.new_n = 10;
  row.base_median = 1;
  row.new_median = ratio;
  row.ratio = ratio;
  row.p_value = verdict == Verdict::kNoChange ? 0.5 : 0.001;
  row.verdict = verdict;
  return row;
}

// On the pipe sink: a no-change, a 10 % and a 50 % slowdown, a speed-up; one row on the file sink.
Result mixed_result() {
  Result result;
  result.group_by = {"test", "input", "sink"};
  result.metric = "elapsed";
  result.rows = {row_of("same", "pipe", 1.0, Verdict::kNoChange),
                 row_of("bit_slower", "pipe", 1.1, Verdict::kSlower),
                 row_of("much_slower", "pipe", 1.5, Verdict::kSlower),
                 row_of("faster", "pipe", 0.5, Verdict::kFaster),
                 row_of("alone", "file", 1.0, Verdict::kNoChange)};
  return result;
}

std::string written(const Result& result, Format format, const TableView& view) {
  std::ostringstream out;
  write_result(result, format, out, view);
  return out.str();
}

TEST(CompareTop, TheLargestSlowdownsComeFirstAndTheRestAreCounted) {
  EXPECT_EQ(written(mixed_result(), Format::kPretty, {2}),
            "input in.txt, sink pipe\n"
            "test          runs     base      new  change  95% CI      p  verdict\n"
            "────────────────────────────────────────────────────────────────────\n"
            "much_slower  10/10  1.000 s  1.500 s  +50.0%       -  0.001  slower\n"
            "bit_slower   10/10  1.000 s  1.100 s  +10.0%       -  0.001  slower\n"
            "… and 2 more (all of them with --format tsv)\n"
            "\n"
            "input in.txt, sink file\n"
            "test    runs     base      new  change  95% CI      p  verdict\n"
            "────────────────────────────────────────────────────────────────\n"
            "alone  10/10  1.000 s  1.000 s    0.0%       -  0.500  no change\n"
            "5 comparisons: 2 slower, 1 faster, 2 no change (Mann-Whitney U, alpha 0.05; change: "
            "Hodges-Lehmann new / base - 1)\n");
}

TEST(CompareTop, WithoutACutTheBaseOrderStaysAndNothingIsCounted) {
  const std::string pretty = written(mixed_result(), Format::kPretty, {0});
  EXPECT_LT(pretty.find("\nsame "), pretty.find("\nbit_slower "));
  EXPECT_LT(pretty.find("\nbit_slower "), pretty.find("\nmuch_slower "));
  EXPECT_LT(pretty.find("\nmuch_slower "), pretty.find("\nfaster "));
  EXPECT_EQ(pretty.find("more ("), std::string::npos);
}

TEST(CompareTop, TsvAndJsonKeepEveryRowInTheBaseOrder) {
  const Result result = mixed_result();
  for (Format format : {Format::kTsv, Format::kJson}) {
    EXPECT_EQ(written(result, format, {1}), written(result, format, {0}));
  }
  const std::string tsv = written(result, Format::kTsv, {1});
  EXPECT_LT(tsv.find("\nsame\t"), tsv.find("\nmuch_slower\t"));
  EXPECT_EQ(std::count(tsv.begin(), tsv.end(), '\n'), 6);
}

TEST(CompareTop, MarkdownCountsTheRestInAParagraphAfterEachTable) {
  const std::string md = written(mixed_result(), Format::kMarkdown, {1});
  EXPECT_NE(md.find("**input in.txt, sink pipe**\n\n| test | runs |"), std::string::npos) << md;
  EXPECT_NE(md.find("| much_slower | 10/10 |"), std::string::npos) << md;
  EXPECT_NE(md.find("|\n\n… and 3 more (all of them with --format tsv)\n\n**input in.txt, sink "
                    "file**\n"),
            std::string::npos)
      << md;
}

}  // namespace
}  // namespace iobench::report
