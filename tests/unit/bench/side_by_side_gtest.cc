// `bench --compare-with hyperfine`: hyperfine's answer as its summary says it, beside iobench's.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "driver/bench/side_by_side.hpp"

namespace iobench::bench {

using report::compare_with_reference;
using report::TimeUnit;
using report::VersusReference;

namespace {

TEST(BenchSideBySide, HyperfinesRatioIsItsMeansWithTheSpreadOfBoth) {
  const OtherToolResult reference{"ref", "", "pipe", 0.010, 0.001, 10};
  EXPECT_EQ(hyperfine_ratio(OtherToolResult{"slow", "", "pipe", 0.020, 0.002, 10}, reference),
            "2.00 ± 0.28 times slower");
  EXPECT_EQ(hyperfine_ratio(OtherToolResult{"fast", "", "pipe", 0.005, 0.0005, 10}, reference),
            "2.00 ± 0.28 times faster");
  EXPECT_EQ(hyperfine_ratio(OtherToolResult{"once", "", "pipe", 0.020, std::nan(""), 1}, reference),
            "2.00 times slower");
  EXPECT_EQ(hyperfine_ratio(reference, reference), "reference");
}

TEST(BenchSideBySide, EachTestShowsBothToolsAnswers) {
  runfile::RunSet set;
  set.group_by = {"test", "input", "sink"};
  for (const auto& [name, times] : {std::pair<std::string, std::vector<double>>{
                                        "ref", {0.010, 0.010, 0.011, 0.010, 0.012, 0.011}},
                                    {"slow", {0.020, 0.021, 0.020, 0.022, 0.021, 0.023}}}) {
    runfile::Group g;
    g.key = {name, "", "pipe"};
    g.samples[runfile::index(runfile::Metric::kElapsed)] = times;
    set.groups.push_back(g);
  }
  const VersusReference versus = compare_with_reference(set, "ref");
  OtherToolRun other{"hyperfine 1.15.0",
                     {{"ref", "", "pipe", 0.010, 0.001, 4}, {"slow", "", "pipe", 0.020, 0.002, 4}},
                     ""};
  std::ostringstream out;
  write_side_by_side(set, versus, other, TimeUnit::kMillisecond, out);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("Side by side with hyperfine 1.15.0 (", 0), 0u) << text;
  EXPECT_NE(text.find("20.0 ms ± 2.0 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00 ± 0.28 times slower"), std::string::npos) << text;
  EXPECT_NE(text.find("2.00× slower ["), std::string::npos) << text;  // iobench's, an interval
  EXPECT_NE(text.find("reference"), std::string::npos) << text;
}

}  // namespace
}  // namespace iobench::bench
