// history rename: a renamed series' runs continue the old one's, for check as for every reader;
// the renames that would mix two things are refused; the store keeps them (SQLite, for real).
#include <gtest/gtest.h>

#include <functional>

#include "common/error.hpp"
#include "driver/history/rename.hpp"
#include "driver/history/store.hpp"
#include "history_builder.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using test::History;

// "slow" measured three times, then its command text changed: the new text is the series
// "steady".
History renamed_history(double new_level_s) {
  History h;
  for (int session = 0; session < 3; ++session) {
    h.add_run("aaaa1111");
    h.add_rows("slow", 0.1);
  }
  h.add_run("bbbb2222");
  h.add_rows("steady", new_level_s);
  return h;
}

SeriesRename slow_to_steady(const History& h) {
  return SeriesRename{h.data.series[0].series_hash, h.data.series[1].series_hash, "me", "now"};
}

TEST(HistoryRename, WithoutItATextChangeIsANewSeriesAndAMissingOne) {
  History h = renamed_history(0.1);
  const CheckReport report = h.check();
  EXPECT_EQ(History::cell(report, "slow").verdict, CellVerdict::kMissing);
  EXPECT_EQ(History::cell(report, "steady").verdict, CellVerdict::kNoBaseline);
  EXPECT_EQ(report.exit_status, kExitNotJudged);
}

TEST(HistoryRename, TheRenamedSeriesContinuesTheOldOneAndCheckComparesThem) {
  for (const double level : {0.1, 0.15}) {
    History h = renamed_history(level);
    h.timelines = build_timelines(h.data);
    continue_renamed(h.timelines, {slow_to_steady(h)});
    ASSERT_EQ(h.timelines.size(), 1u);
    const Timeline& t = h.timelines[0];
    EXPECT_EQ(t.series->key.test, "steady");
    ASSERT_EQ(t.points.size(), 4u);
    EXPECT_EQ(t.points[0].run->run_id, 1);
    EXPECT_EQ(t.points[3].run->run_id, 4);
    EXPECT_EQ(&find_timeline(h.timelines, "slow"), &t);  // the old name still finds it
    const CheckReport report = check_history(h.data, h.timelines, {});
    ASSERT_EQ(report.cells.size(), 1u);
    EXPECT_EQ(report.cells[0].verdict,
              level > 0.1 ? CellVerdict::kRegression : CellVerdict::kSteady);
    EXPECT_EQ(report.exit_status, level > 0.1 ? kExitRunFailed : kExitOk);
  }
}

TEST(HistoryRename, AnAckOfTheOldSeriesStillStartsTheBaseline) {
  History h;
  h.add_run("aaaa1111");
  h.add_rows("slow", 0.1);
  h.add_run("bbbb2222");
  h.add_rows("slow", 0.15);  // acknowledged: the new normal
  h.data.acks.push_back({change_id(h.data.series[0].series_hash, h.data.runs[1].run_hash), "", "",
                         "on purpose", "me", "2026-02-01T00:00:00Z"});
  h.add_run("cccc3333");
  h.add_rows("steady", 0.15);  // slow's command under a new text
  h.timelines = build_timelines(h.data);
  continue_renamed(h.timelines, {slow_to_steady(h)});
  const CheckReport report = check_history(h.data, h.timelines, History::no_drift());
  ASSERT_EQ(report.cells.size(), 1u);
  EXPECT_EQ(report.cells[0].verdict, CellVerdict::kSteady);
  EXPECT_EQ(report.cells[0].baseline_runs, 1u);  // from the acknowledged run on
}

TEST(HistoryRename, AChainContinuesAsItsLastSeries) {
  History h;
  h.add_run("c1");
  h.add_rows("slow", 0.1);
  h.add_run("c2");
  h.add_rows("steady", 0.1);
  h.add_run("c3");
  h.add_rows("unverified", 0.1);
  h.timelines = build_timelines(h.data);
  const std::string a = h.data.series[0].series_hash;
  const std::string b = h.data.series[1].series_hash;
  const std::string c = h.data.series[2].series_hash;
  continue_renamed(h.timelines, {{b, c, "", ""}, {a, b, "", ""}});
  ASSERT_EQ(h.timelines.size(), 1u);
  EXPECT_EQ(h.timelines[0].series->series_hash, c);
  EXPECT_EQ(h.timelines[0].points.size(), 3u);
}

TEST(HistoryRename, RenamesThatWouldMixTwoThingsAreRefused) {
  History h = renamed_history(0.1);
  const SeriesRename ok = plan_rename(h.data, {}, "slow", "steady");
  EXPECT_EQ(ok.old_hash, h.data.series[0].series_hash);
  EXPECT_EQ(ok.new_hash, h.data.series[1].series_hash);
  const auto message = [&h](const std::vector<SeriesRename>& existing, const std::string& from,
                            const std::string& to) {
    try {
      plan_rename(h.data, existing, from, to);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({}, "slow", "slow"), "history rename slow slow: both name series 01aabbcc");
  EXPECT_EQ(message({slow_to_steady(h)}, "steady", "slow"),
            "history rename steady slow: 01aabbcc already continues as 02aabbcc; renaming back "
            "would make a loop");
  h.add_rows("unverified", 0.1);
  EXPECT_EQ(message({}, "slow", "unverified"),
            "history rename slow unverified: only the command may change, and these differ: one "
            "is verified, the other not");
  h.add_rows("slow", 0.1);  // both in run 4 now
  EXPECT_EQ(message({}, "slow", "steady"),
            "history rename slow steady: both have rows in run 0004ffff (commit bbbb2222): two "
            "commands measured side by side, not one renamed");
  EXPECT_EQ(message({}, "nosuch", "steady"),
            "no series 'nosuch' in the store (iobench history list shows them)");
}

// Issue 47: a gbench series in ns renamed onto one in µs, and check read 314 µs -> 710 ns as
// 442.60 times lower. A series never mixes units, tools or measures: the rename is refused, and
// one stored before it was (an older iobench) joins nothing.
TEST(HistoryRename, ASeriesNeverJoinsOneOfAnotherUnitToolOrMeasure) {
  const auto refusal = [](const std::function<void(SeriesKey&, SeriesKey&)>& make) {
    History h = renamed_history(0.1);
    for (StoredSeries& s : h.data.series) {
      s.key.tool = "gbench";
      s.key.unit = "ns";
      s.key.sink = "real_time";
      s.key.host_class = "Xeon | 2 CPUs";
    }
    make(h.data.series[0].key, h.data.series[1].key);
    try {
      plan_rename(h.data, {}, "slow", "steady");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string refused =
      "history rename slow steady: only the command may change, and these differ: ";
  EXPECT_EQ(refusal([](SeriesKey&, SeriesKey&) {}), "no error");
  EXPECT_EQ(refusal([](SeriesKey& from, SeriesKey&) { from.unit = "us"; }),
            refused + "unit us vs ns");
  EXPECT_EQ(refusal([](SeriesKey& from, SeriesKey&) { from.tool = "criterion"; }),
            refused + "tool criterion vs gbench");
  EXPECT_EQ(refusal([](SeriesKey&, SeriesKey& to) { to.tool.clear(); }),
            refused + "tool gbench vs iobench");
  EXPECT_EQ(refusal([](SeriesKey&, SeriesKey& to) { to.sink = "cpu_time"; }),
            refused + "measure real_time vs cpu_time");
  EXPECT_EQ(refusal([](SeriesKey&, SeriesKey& to) { to.direction = "higher"; }),
            refused + "direction lower vs higher");
  EXPECT_EQ(refusal([](SeriesKey&, SeriesKey& to) { to.host_class = "Xeon | 4 CPUs"; }),
            refused + "host class Xeon | 2 CPUs vs Xeon | 4 CPUs");

  History h = renamed_history(0.1);
  h.data.series[0].key.unit = "ns";
  h.timelines = build_timelines(h.data);
  continue_renamed(h.timelines, {slow_to_steady(h)});
  EXPECT_EQ(h.timelines.size(), 2u);
}

TEST(HistoryRename, TheStoreKeepsRenamesAndAStoreNeverRenamedHasNone) {
  iobench::test::TempDir dir("history-rename");
  const StoreLocation location = parse_store_location((dir / "h.sqlite").string());
  {
    Store store(location, OpenMode::kCreate);
    EXPECT_TRUE(store.renames().empty());
    store.rename_series({"aaaa", "bbbb", "me", "2026-01-01T00:00:00Z"});
    store.rename_series({"aaaa", "cccc", "you", "2026-01-02T00:00:00Z"});  // replaces
    store.rename_series({"dddd", "eeee", "me", "2026-01-03T00:00:00Z"});
  }
  Store again(location, OpenMode::kExisting);
  const std::vector<SeriesRename> renames = again.renames();
  ASSERT_EQ(renames.size(), 2u);
  EXPECT_EQ(renames[0].old_hash, "aaaa");
  EXPECT_EQ(renames[0].new_hash, "cccc");
  EXPECT_EQ(renames[0].who, "you");
  EXPECT_EQ(renames[1].old_hash, "dddd");
}

}  // namespace
}  // namespace iobench::history
