// What list, show, export and plot make of a history: a step found and marked, acknowledged
// with a star, the Bencher Metric Format's fields.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "driver/history/changes.hpp"
#include "driver/history/listing.hpp"
#include "driver/history/trend_plot.hpp"
#include "history_builder.hpp"

namespace iobench::history {
namespace {

using test::History;

// Eight runs at 0.1 s, then eight at 0.12 s: one change point, at run 9.
History stepped() {
  History h;
  for (int i = 0; i < 16; ++i) {
    h.add_run(fmt::format("c{:07d}", i));
    h.add_all(i < 8 ? 0.1 : 0.12);
  }
  h.timelines = build_timelines(h.data);
  return h;
}

const Timeline& slow_of(const History& h) {
  return find_timeline(h.timelines, "slow");
}

TEST(HistoryChanges, AStepIsOneChangeAtItsFirstRun) {
  const History h = stepped();
  const auto changes = series_changes(slow_of(h), h.data);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].first_run->run->labels.commit, "c0000008");
  EXPECT_NEAR(changes[0].point.relative_change(), 0.2, 0.01);
  EXPECT_EQ(changes[0].change_id, "01aabbcc@0009ffff");
  EXPECT_NE(describe_change(changes[0]).find("(+20.0 %)"), std::string::npos);
  EXPECT_TRUE(series_changes(find_timeline(h.timelines, "steady"), h.data).empty());
}

TEST(HistoryPlot, EveryCountedRowIsAPointAndTheChangeIsMarkedWithItsAck) {
  History h = stepped();
  TrendChart chart = render_trend(h.data, slow_of(h));
  EXPECT_EQ(chart.points, 80u);
  EXPECT_EQ(chart.change_points, 1u);
  EXPECT_EQ(chart.acknowledged, 0u);
  h.data.acks.push_back({"01aabbcc@0009ffff", "", "", "a <bigger> buffer", "me", "t"});
  chart = render_trend(h.data, slow_of(h));
  EXPECT_EQ(chart.acknowledged, 1u);
  EXPECT_NE(chart.svg.find("acknowledged by me: a &lt;bigger&gt; buffer"), std::string::npos);
  EXPECT_EQ(chart.svg.rfind("<?xml", 0), 0u);
}

TEST(HistoryExport, BencherMetricFormatHasLatencyInNanosecondsOfTheNewestRun) {
  const History h = stepped();
  std::ostringstream out;
  write_bmf(h.timelines, std::nullopt, out);
  const auto bmf = nlohmann::json::parse(out.str());
  ASSERT_EQ(bmf.size(), 2u);  // the unverified series has no row that counts
  const auto& latency = bmf["slow (in.txt, pipe)"]["latency"];
  EXPECT_NEAR(latency["value"].get<double>(), 0.12e9, 0.01e9);
  EXPECT_LE(latency["lower_value"].get<double>(), latency["value"].get<double>());
  EXPECT_GE(latency["upper_value"].get<double>(), latency["value"].get<double>());
  std::ostringstream first;
  write_bmf(h.timelines, std::string("c0000000"), first);
  EXPECT_NEAR(
      nlohmann::json::parse(first.str())["slow (in.txt, pipe)"]["latency"]["value"].get<double>(),
      0.1e9, 0.01e9);
}

TEST(HistoryList, EachSeriesWithItsLatestTrendAndLastChange) {
  const History h = stepped();
  std::ostringstream out;
  write_series_list(h.data, h.timelines, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("01aabbcc    16"), std::string::npos) << text;
  EXPECT_NE(text.find("slow (in.txt, pipe): 01aabbcc@0009ffff (+20.0 % at c0000008)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("steady (in.txt, pipe): none"), std::string::npos) << text;
  std::ostringstream detail;
  write_series_detail(h.data, slow_of(h), detail);
  EXPECT_NE(detail.str().find("change 01aabbcc@0009ffff (+20.0 %)"), std::string::npos)
      << detail.str();
}

// c1 to c3 at 0.1 s, then c4 and c5 at 0.114 s: no change point yet, and check's regression.
History two_slow_runs() {
  History h;
  for (const char* commit : {"c1", "c2", "c3", "c4", "c5"}) {
    h.add_run(commit);
    h.add_all(std::string(commit) < "c4" ? 0.1 : 0.114);
  }
  h.timelines = build_timelines(h.data);
  return h;
}

TEST(HistoryList, ATrendWithNoChangePointYetSaysWhatCheckFound) {
  const History h = two_slow_runs();
  ASSERT_TRUE(series_changes(slow_of(h), h.data).empty());
  std::ostringstream out;
  write_series_list(h.data, h.timelines, out);
  // The trend is against the median of the runs before (+14.1 %); check's ratio is against its
  // baseline's rows, c4's among them (+13.6 %); both name the same move.
  EXPECT_NE(out.str().find("+14.1 %  slow (in.txt, pipe): no change point yet; check: regression "
                           "01aabbcc@0004ffff (+13.6 % since c4)"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("steady (in.txt, pipe): none"), std::string::npos) << out.str();
}

// One value a run (a BMF or aggregate-only import), doubled in the second: too few values for
// check and for a change point, and the list says so beside the trend (issue 47: "+98.4 %" stood
// beside "none").
TEST(HistoryList, ATrendThatIsNoChangeSaysWhy) {
  History h;
  h.add_run("c1");
  h.add_values("slow", {0.1});
  h.add_rows("steady", 0.2);
  h.add_run("c2");
  h.add_values("slow", {0.198});
  h.add_rows("steady", 0.2);
  h.timelines = build_timelines(h.data);
  std::ostringstream out;
  write_series_list(h.data, h.timelines, out);
  EXPECT_NE(out.str().find("+98.0 %  slow (in.txt, pipe): none: too few runs to tell (2 with a "
                           "row that counts, a change point needs 8; check: too few rows to "
                           "judge (1 of the baseline, 1 of the newest run))"),
            std::string::npos)
      << out.str();
  // A trend within the minimum effect says no change itself.
  EXPECT_NE(out.str().find("+0.1 %  steady (in.txt, pipe): none\n"), std::string::npos)
      << out.str();
}

TEST(HistoryShow, AnAckOfChecksRegressionIsInTheNotesOfItsRun) {
  History h = two_slow_runs();
  h.data.acks.push_back({"01aabbcc@0004ffff", "01aabbccddeeff00", "0004ffffeeeedddd",
                         "bigger buffers", "me", "2026-02-01T00:00:00Z"});
  std::ostringstream detail;
  write_series_detail(h.data, slow_of(h), detail);
  const std::string text = detail.str();
  const std::size_t c4 = text.find("  c4  ");
  ASSERT_NE(c4, std::string::npos) << text;
  EXPECT_NE(text.find("acknowledged 01aabbcc@0004ffff by me at 2026-02-01T00:00:00Z: bigger "
                      "buffers",
                      c4),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("acknowledged"), text.find("acknowledged", c4)) << text;  // c4's alone
}

}  // namespace
}  // namespace iobench::history
