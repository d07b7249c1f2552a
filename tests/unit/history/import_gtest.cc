// Imported results through a real SQLite store and check (docs/history.md, "Other harnesses"):
// the values back exactly, a drop of a higher-is-better series is the regression, a changed
// build type is "conditions changed", a summary is said to have no samples.
#include <gtest/gtest.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "driver/history/check.hpp"
#include "driver/history/check_output.hpp"
#include "driver/history/import_record.hpp"
#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"
#include "driver/history/timeline.hpp"
#include "driver/history/trend_plot.hpp"
#include "tests/unit/history/fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using importers::Direction;
using importers::ImportedRun;
using importers::ImportedSeries;

// A run of two series, ten values each around `throughput` (higher is better) and `latency_ns`.
ImportedRun run_of(double throughput, double latency_ns, const std::string& build = "release") {
  ImportedRun run;
  run.tool = "gbench";
  run.conditions["library_build_type"] = build;
  ImportedSeries up =
      importers::series_named("BM_Copy", "bytes_per_second", "B/s", Direction::kHigherIsBetter);
  ImportedSeries down =
      importers::series_named("BM_Copy", "real_time", "ns", Direction::kLowerIsBetter);
  for (int i = 0; i < 10; ++i) {
    up.samples.push_back(throughput * (1 + 0.001 * i));
    down.samples.push_back(latency_ns * (1 + 0.001 * i));
  }
  up.failed.assign(10, false);
  down.failed.assign(10, false);
  run.series = {up, down};
  return run;
}

class ImportTest : public ::testing::Test {
 protected:
  // The record's notes (what the add says beside its "added" line).
  std::vector<std::string> add(const ImportedRun& run, const std::string& commit,
                               const AddOptions& format = {}) {
    Store store(parse_store_location((dir_ / "h.sqlite").string()), OpenMode::kCreate);
    const std::string& bytes = commit;  // the run's identity: one a commit here
    Labels labels;
    labels.commit = commit;
    const RunRecord record =
        imported_record(run, bytes, commit + ".json", labels, test::kNoEnvironment, format);
    store.add(record);
    return record.notes;
  }
  CheckReport check(const CheckOptions& options = {}) {
    Store store(parse_store_location((dir_ / "h.sqlite").string()), OpenMode::kReadOnly);
    data_ = store.load();
    timelines_ = build_timelines(data_);
    return check_history(data_, timelines_, options);
  }
  static const CellCheck& cell(const CheckReport& report, std::string_view measure) {
    for (const CellCheck& c : report.cells) {
      if (c.timeline->series->key.sink == measure) return c;
    }
    throw std::runtime_error("no such cell");
  }
  iobench::test::TempDir dir_{"history-import"};
  HistoryData data_;
  std::vector<Timeline> timelines_;
};

TEST_F(ImportTest, ValuesComeBackExactlyWithTheirUnitAndDirection) {
  add(run_of(1e9 / 3, 3.25e-3), "c1");
  check();
  ASSERT_EQ(data_.series.size(), 2U);
  for (const StoredSeries& series : data_.series) {
    EXPECT_EQ(series.key.tool, "gbench");
    EXPECT_EQ(series.key.unit, series.key.sink == "real_time" ? "ns" : "B/s");
    EXPECT_EQ(series.key.direction, series.key.sink == "real_time" ? "lower" : "higher");
  }
  std::vector<double> latencies;
  for (const StoredSample& s : data_.samples) {
    if (data_.series[static_cast<std::size_t>(s.series_id - 1)].key.sink == "real_time") {
      latencies.push_back(s.elapsed_s);
    }
  }
  ASSERT_EQ(latencies.size(), 10U);
  EXPECT_EQ(latencies.front(), 3.25e-3);  // a few ns survive: not whole microseconds
  EXPECT_EQ(data_.runs.front().conditions, "library_build_type=release");
}

TEST(ImportedValueText, EachValueInItsSeriesUnit) {
  SeriesKey key;
  key.tool = "gbench";
  key.unit = "ns";
  EXPECT_EQ(value_text(3.25, key), "3.25 ns");  // not "0 µs": below format_seconds' resolution
  EXPECT_EQ(value_text(1842.4, key), "1.84 µs");
  key.unit = "items/s";
  EXPECT_EQ(value_text(1.25e6, key), "1.25e+06 items/s");
  key.unit = "";
  EXPECT_EQ(value_text(88.5, key), "88.5");
  EXPECT_EQ(value_text(0.0123, SeriesKey{}), "12.30 ms");  // iobench's own: seconds
}

TEST_F(ImportTest, ADropOfAHigherIsBetterSeriesIsTheRegression) {
  add(run_of(1000, 50), "c1");
  add(run_of(1000, 50), "c2");
  add(run_of(1000, 50), "c2b");  // three sessions: enough to learn their spread
  add(run_of(800, 40), "c3");    // throughput down 20 %, time down 20 %
  const CheckReport report = check();
  EXPECT_EQ(cell(report, "bytes_per_second").verdict, CellVerdict::kRegression);
  EXPECT_EQ(cell(report, "real_time").verdict, CellVerdict::kFaster);
  EXPECT_EQ(report.exit_status, 1);
  const std::string line = describe_cell(cell(report, "bytes_per_second"));
  EXPECT_NE(line.find("BM_Copy (gbench bytes_per_second): bytes_per_second 1004 B/s -> 803.6 B/s, "
                      "1.25 times lower"),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("(higher is better)"), std::string::npos) << line;
  std::ostringstream json;
  write_check_report(report, CheckFormat::kJson, json);
  // Named: a range-for over parse(...)["series"] would iterate a temporary already destroyed.
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  for (const auto& series : doc["series"]) {
    EXPECT_EQ(series["tool"], "gbench");
    EXPECT_EQ(series["direction"], series["sink"] == "real_time" ? "lower" : "higher");
    EXPECT_EQ(series["unit"], series["sink"] == "real_time" ? "ns" : "B/s");
  }
}

TEST_F(ImportTest, ARiseOfAHigherIsBetterSeriesIsNoRegression) {
  add(run_of(1000, 50), "c1");
  add(run_of(1000, 50), "c2");
  add(run_of(1200, 50), "c3");
  CheckOptions rows_decide;
  rows_decide.session_spread_pct = 0;
  const CheckReport report = check(rows_decide);
  EXPECT_EQ(cell(report, "bytes_per_second").verdict, CellVerdict::kFaster);
  EXPECT_EQ(report.exit_status, 0);
}

TEST_F(ImportTest, ThePlotsAxisIsInTheSeriesUnit) {
  add(run_of(1000, 50), "c1");
  add(run_of(1000, 50), "c2");
  check();
  for (const Timeline& timeline : timelines_) {
    const std::string svg = render_trend(data_, timeline).svg;
    const std::string unit = timeline.series->key.sink == "real_time" ? " ns<" : " B/s<";
    EXPECT_NE(svg.find(unit), std::string::npos) << timeline.series->key.sink;
    EXPECT_EQ(svg.find(" s<"), std::string::npos) << "a tick in seconds";
  }
}

TEST_F(ImportTest, ADebugBuildIsConditionsChangedNotARegression) {
  add(run_of(1000, 50), "c1");
  add(run_of(1000, 50), "c2");
  add(run_of(500, 100, "debug"), "c3");
  const CheckReport report = check();
  const CellCheck& c = cell(report, "real_time");
  EXPECT_EQ(c.verdict, CellVerdict::kConditionsChanged);
  EXPECT_NE(c.conditions.find("library_build_type=release -> library_build_type=debug"),
            std::string::npos)
      << c.conditions;
  EXPECT_EQ(report.exit_status, kExitNotJudged);
}

TEST_F(ImportTest, ASummaryIsSaidToHaveNoSamples) {
  for (const char* commit : {"c1", "c2", "c3"}) {
    ImportedRun run;
    run.tool = "bmf";
    ImportedSeries series =
        importers::series_named("copy", "latency", "ns", Direction::kLowerIsBetter);
    series.summary = importers::summary_of(100, std::nullopt, 1);
    run.series = {series};
    add(run, commit);
  }
  const CheckReport report = check();
  ASSERT_EQ(report.cells.size(), 1U);
  ASSERT_TRUE(report.cells.front().summary_n);
  const std::string line = describe_cell(report.cells.front());
  EXPECT_NE(line.find("no samples: the file gave only a summary a run (n = 1)"), std::string::npos)
      << line;
}

// Issue 47: gbench's host_name was in no series' key, so another host's file joined this one's.
TEST_F(ImportTest, TheHostClassTheImporterMadeKeysTheSeries) {
  ImportedRun here = run_of(1000, 50);
  here.host_class = "vm | 2 CPUs | 2.6 GHz | caches L1d 48 KiB";
  ImportedRun there = here;
  there.host_class = "other | 2 CPUs | 2.6 GHz | caches L1d 48 KiB";
  add(here, "c1");
  add(here, "c2");
  add(there, "c3");
  const CheckReport report = check();
  ASSERT_EQ(data_.series.size(), 4U);  // two measures on each host
  for (const CellCheck& c : report.cells) {
    const bool other = c.timeline->series->key.host_class == there.host_class;
    EXPECT_EQ(c.timeline->points.size(), other ? 1U : 2U);
    if (other) {
      EXPECT_EQ(c.verdict, CellVerdict::kNoBaseline);  // not judged against vm's
    }
  }
}

// A measure the file gives no direction for (a gbench user counter, "MyCounter"), beside one
// that has a direction.
ImportedRun with_counter() {
  ImportedRun run = run_of(1000, 50);
  ImportedSeries counter =
      importers::series_named("BM_Copy", "MyCounter", "", Direction::kLowerIsBetter);
  counter.samples.assign(10, 7);
  counter.failed.assign(10, false);
  run.undirected = {counter};
  return run;
}

TEST_F(ImportTest, ACounterWithoutADirectionIsLeftOutAndSaidSo) {
  const std::vector<std::string> notes = add(with_counter(), "c1");
  check();
  EXPECT_EQ(data_.series.size(), 2U);
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_EQ(notes.front(),
            "c1.json: 1 counter not imported (MyCounter): the file says not whether higher or "
            "lower is better; history add --higher-is-better REGEX or --lower-is-better REGEX "
            "imports those the regex names");
}

TEST_F(ImportTest, ACounterANamedDirectionMatchesIsImportedWithIt) {
  AddOptions format;
  format.higher_is_better = {"My.*"};
  format.lower_is_better = {"Other"};
  EXPECT_TRUE(add(with_counter(), "c1", format).empty());
  check();
  ASSERT_EQ(data_.series.size(), 3U);
  const SeriesKey& key = data_.series.back().key;
  EXPECT_EQ(key.sink, "MyCounter");
  EXPECT_EQ(key.direction, "higher");
  EXPECT_EQ(key.unit, "");           // gbench's JSON gives a counter no unit
  format.higher_is_better = {"My"};  // the whole name: no match
  EXPECT_EQ(add(with_counter(), "c2", format).size(), 1U);
}

TEST_F(ImportTest, ABadRegexOrACounterBothDirectionsNameIsAnError) {
  AddOptions format;
  format.higher_is_better = {"("};
  EXPECT_THROW(add(with_counter(), "c1", format), Error);
  format.higher_is_better = {"My.*"};
  format.lower_is_better = {".*Counter"};
  try {
    add(with_counter(), "c1", format);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "c1.json: MyCounter: both --higher-is-better and --lower-is-better name it");
  }
}

TEST_F(ImportTest, AVersion1StoreIsMigratedKeepingItsRowsAndThenTakesImports) {
  const std::string path = (dir_ / "h.sqlite").string();
  {
    soci::session sql(soci::sqlite3, path);
    for (const std::string& statement : migration_statements(1, sqlite_dialect())) {
      sql << statement;
    }
    sql << "INSERT INTO series (series_hash, test, input, sink, cache_mode, counters,"
           " definition_hash, verified, input_identity, host_class) VALUES ('00112233aabbccdd',"
           " 'read-raw', 'in.txt', 'pipe', 'warm', '', 'def', 1, 'path:in.txt', 'box')";
    sql << "PRAGMA application_id = " << kSqliteApplicationId;
    sql << "PRAGMA user_version = 1";
  }
  add(run_of(1000, 50), "c1");
  soci::session sql(soci::sqlite3, path);
  int version = 0;
  int user_version = 0;
  sql << "SELECT version FROM schema_version", soci::into(version);
  sql << "PRAGMA user_version", soci::into(user_version);
  EXPECT_EQ(version, kSchemaVersion);
  EXPECT_EQ(user_version, kSchemaVersion);
  std::string tool = "?";
  std::string unit;
  std::string direction;
  sql << "SELECT tool, unit, direction FROM series WHERE series_hash = '00112233aabbccdd'",
      soci::into(tool), soci::into(unit), soci::into(direction);
  EXPECT_EQ(tool, "");  // iobench's own series: the defaults
  EXPECT_EQ(unit, "s");
  EXPECT_EQ(direction, "lower");
  long long imported = 0;
  sql << "SELECT COUNT(*) FROM samples WHERE value IS NOT NULL", soci::into(imported);
  EXPECT_EQ(imported, 20);
}

}  // namespace
}  // namespace iobench::history
