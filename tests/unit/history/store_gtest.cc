// The SQLite store: a run stored once and whole, every figure back exactly, the schema's version
// guarded, retention and acknowledgements.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <filesystem>

#include "common/error.hpp"
#include "driver/history/add_runs.hpp"
#include "driver/history/new_store_undo.hpp"
#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"
#include "driver/history/timeline.hpp"
#include "fixture.hpp"
#include "tests/unit/history/fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using test::sample_meta;
using test::sample_row;
using test::write_run;

class StoreTest : public ::testing::Test {
 protected:
  StoreLocation location() const { return parse_store_location((dir_ / "h.sqlite").string()); }
  RunRecord record(const std::string& name, const std::vector<runfile::RunRow>& rows,
                   const nlohmann::json& meta = sample_meta(),
                   const std::vector<runfile::Counter>& counters = {}) {
    return load_run_record(write_run(dir_.path(), name, meta, rows, counters), {},
                           test::kNoEnvironment);
  }
  iobench::test::TempDir dir_{"history-store"};
};

TEST_F(StoreTest, AddingTheSameRunTwiceStoresItOnce) {
  Store store(location(), OpenMode::kCreate);
  const RunRecord run = record("a", {sample_row("read-raw", 0.1), sample_row("read-raw", 0.2, 2)});
  const AddOutcome first = store.add(run);
  EXPECT_TRUE(first.stored);
  EXPECT_EQ(first.rows, 2u);
  EXPECT_EQ(first.new_series, 1u);
  const AddOutcome again = store.add(run);
  EXPECT_FALSE(again.stored);
  EXPECT_EQ(again.run_id, first.run_id);
  const HistoryData data = store.load();
  EXPECT_EQ(data.runs.size(), 1u);
  EXPECT_EQ(data.samples.size(), 2u);
  EXPECT_EQ(data.runs[0].labels.commit, "c0ffee1");  // the measured commit, no label given
}

TEST_F(StoreTest, EveryFigureOfEveryRowComesBackExactly) {
  runfile::RunRow row = sample_row("count-read", 1.234567);
  row.user_s = 0.000001;
  row.system_s = 0.5;
  row.cpu_pct = 40.5;
  row.status = runfile::RunStatus::kMismatch;
  row.exit_code.reset();
  row.bytes_out.reset();
  row.cache_pct = 99.9;
  row.output_hash = "ffffffffffffff01";  // the high bit set: a negative BIGINT in the store
  row.host = "other";
  row.counters[index(runfile::Counter::kSyscalls)] = 123456789012;
  row.counted_pct = 87.5;
  Store store(location(), OpenMode::kCreate);
  store.add(
      record("a", {row}, sample_meta(), {runfile::Counter::kSyscalls, runfile::Counter::kCycles}));
  const HistoryData data = store.load();
  ASSERT_EQ(data.samples.size(), 1u);
  const StoredSample& s = data.samples[0];
  EXPECT_DOUBLE_EQ(s.elapsed_s, 1.234567);
  EXPECT_DOUBLE_EQ(s.user_s, 0.000001);
  EXPECT_DOUBLE_EQ(s.cpu_pct, 40.5);
  EXPECT_EQ(s.status, runfile::RunStatus::kMismatch);
  EXPECT_EQ(s.exit_code, std::nullopt);
  EXPECT_EQ(s.bytes_out, std::nullopt);
  EXPECT_EQ(s.cache_pct, 99.9);
  EXPECT_EQ(s.output_hash, 0xffffffffffffff01ULL);
  EXPECT_EQ(s.host, "other");
  EXPECT_EQ(s.counters[index(runfile::Counter::kSyscalls)], 123456789012ULL);
  EXPECT_EQ(s.counters[index(runfile::Counter::kCycles)],
            std::nullopt);  // not counted: empty, not 0
  EXPECT_EQ(s.counted_pct, 87.5);
  EXPECT_EQ(s.max_rss_kib, 2048);
  ASSERT_EQ(data.series.size(), 1u);
  EXPECT_EQ(data.series[0].key.counters, "syscalls,cycles");
  EXPECT_EQ(data.runs[0].busy_cpus_start, 0.1);
}

TEST_F(StoreTest, AnAddThatFailsHalfWayLeavesNothing) {
  runfile::RunRow bad = sample_row("read-raw", 0.1, 2);
  bad.output_hash = "not-a-hex-digest";  // 16 characters that are no hash: fails mid-insert
  Store store(location(), OpenMode::kCreate);
  EXPECT_THROW(store.add(record("a", {sample_row("read-raw", 0.1), bad})), Error);
  const HistoryData data = store.load();
  EXPECT_TRUE(data.runs.empty());
  EXPECT_TRUE(data.series.empty());
  EXPECT_TRUE(data.samples.empty());
}

TEST_F(StoreTest, ASeriesMadeByAnAddThatFailedIsNotReusedByTheNextAdd) {
  // The store keeps the series ids it committed (docs/history.md, "Performance"); one made in a
  // transaction that rolled back must not be: the next add of the cell makes it again.
  runfile::RunRow bad = sample_row("read-raw", 0.1, 2);
  bad.output_hash = "not-a-hex-digest";
  Store store(location(), OpenMode::kCreate);
  EXPECT_THROW(store.add(record("a", {sample_row("read-raw", 0.1), bad})), Error);
  const AddOutcome good = store.add(record("b", {sample_row("read-raw", 0.2)}));
  EXPECT_EQ(good.new_series, 1u);
  const AddOutcome again = store.add(record("c", {sample_row("read-raw", 0.3)}));
  EXPECT_EQ(again.new_series, 0u);
  const HistoryData data = store.load();
  ASSERT_EQ(data.series.size(), 1u);
  ASSERT_EQ(data.samples.size(), 2u);
  for (const StoredSample& sample : data.samples) {
    EXPECT_EQ(sample.series_id, data.series[0].series_id);
  }
}

TEST_F(StoreTest, AddingFilesNamesTheFirstBadOneInTheOrderGivenAndWritesNothing) {
  // The files are read on every CPU before anything is stored (add_run_files); the error is
  // still the first bad file's, in the order given, whichever thread read it.
  std::vector<std::filesystem::path> files;
  files.reserve(8);
  for (int i = 0; i < 8; ++i) {
    files.push_back(write_run(dir_.path(), fmt::format("r{}", i), sample_meta(),
                              {sample_row("read-raw", 0.1 * (i + 1))}));
  }
  for (const int lone : {3, 6}) {
    std::filesystem::remove(dir_.path() / "meta" / fmt::format("r{}.json", lone));
  }
  Store store(location(), OpenMode::kCreate);
  try {
    add_run_files(store, files, {}, test::kNoEnvironment);
    FAIL() << "no error for run files without their meta files";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("r3.tsv"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("r6.tsv"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(store.load().runs.empty());
}

TEST_F(StoreTest, AnAddWhoseLastFileFailsInTheStoreLeavesTheStoreAsItWas) {
  // The files of one add are stored while the later ones are read, all in one transaction
  // (docs/history.md, "Adding runs"): a file that fails last, after the good ones were stored,
  // rolls them all back.
  Store store(location(), OpenMode::kCreate);
  store.add(record("before", {sample_row("read-raw", 0.1)}));
  std::vector<std::filesystem::path> files;
  files.reserve(6);
  for (int i = 0; i < 6; ++i) {
    files.push_back(write_run(dir_.path(), fmt::format("g{}", i), sample_meta(),
                              {sample_row("read-raw", 0.2 + i), sample_row("wc", 0.3 + i)}));
  }
  runfile::RunRow bad = sample_row("mmap-raw", 0.1);
  bad.output_hash = "not-a-hex-digest";  // read fine, fails in the store
  files.push_back(write_run(dir_.path(), "bad", sample_meta(), {bad}));
  try {
    add_run_files(store, files, {}, test::kNoEnvironment);
    FAIL() << "no error for a row the store cannot take";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.tsv"), std::string::npos) << e.what();
  }
  const HistoryData data = store.load();
  ASSERT_EQ(data.runs.size(), 1u);
  EXPECT_EQ(data.runs[0].runs_file, (dir_.path() / "before.tsv").string());
  EXPECT_EQ(data.series.size(), 1u);
  EXPECT_EQ(data.samples.size(), 1u);
  const AddOutcome again = store.add(record("g9", {sample_row("wc", 0.4)}));
  EXPECT_EQ(again.new_series, 1u);  // wc's series went with the rollback
}

TEST_F(StoreTest, TheSameFileTwiceInOneAddIsStoredOnce) {
  const auto a = write_run(dir_.path(), "a", sample_meta(),
                           {sample_row("read-raw", 0.1), sample_row("wc", 0.2)});
  const auto b = write_run(dir_.path(), "b", sample_meta(), {sample_row("read-raw", 0.3)});
  Store store(location(), OpenMode::kCreate);
  const std::vector<std::string> lines = add_run_files(store, {a, b, a}, {}, test::kNoEnvironment);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("2 rows, 2 new series"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("1 rows, 0 new series"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("is already in"), std::string::npos) << lines[2];
  const HistoryData data = store.load();
  EXPECT_EQ(data.runs.size(), 2u);
  EXPECT_EQ(data.series.size(), 2u);
  EXPECT_EQ(data.samples.size(), 3u);
}

TEST_F(StoreTest, RunsMeasuredOtherwiseInOneAddAreOtherSeries) {
  // One add works out each way of measuring once (SeriesIdentity::context_of) for all its runs:
  // a run that differs in any part of the series' identity still makes its own series.
  nlohmann::json other_cpu = sample_meta();
  other_cpu["context"]["cpu_model"] = "Other CPU";
  nlohmann::json cold = sample_meta();
  cold["config"]["cache"] = "cold";
  nlohmann::json other_definition = sample_meta();
  other_definition["config"]["strategies"][0]["worker"].push_back("--fast");
  // Each file's own figures: a run is known by its run file's bytes.
  const auto rows = [](double elapsed_s) {
    return std::vector<runfile::RunRow>{sample_row("read-raw", elapsed_s)};
  };
  const std::vector<std::filesystem::path> files{
      write_run(dir_.path(), "base", sample_meta(), rows(0.1)),
      write_run(dir_.path(), "again", sample_meta(), rows(0.2)),
      write_run(dir_.path(), "cpu", other_cpu, rows(0.3)),
      write_run(dir_.path(), "cold", cold, rows(0.4)),
      write_run(dir_.path(), "definition", other_definition, rows(0.5)),
      write_run(dir_.path(), "counters", sample_meta(), rows(0.6), {runfile::Counter::kSyscalls})};
  Store store(location(), OpenMode::kCreate);
  const std::vector<std::string> lines = add_run_files(store, files, {}, test::kNoEnvironment);
  ASSERT_EQ(lines.size(), files.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NE(lines[i].find(i == 1 ? "0 new series" : "1 new series"), std::string::npos)
        << lines[i];
  }
  EXPECT_EQ(store.load().series.size(), 5u);
}

TEST_F(StoreTest, AStoreFromANewerSchemaIsRefusedInOneLine) {
  { Store store(location(), OpenMode::kCreate); }
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + location().sqlite_path.string());
    sql << "UPDATE schema_version SET version = " << kSchemaVersion + 1;
  }
  try {
    Store store(location(), OpenMode::kExisting);
    FAIL() << "a newer schema was opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    EXPECT_NE(std::string(e.what()).find("newer than this iobench's"), std::string::npos)
        << e.what();
  }
}

TEST_F(StoreTest, ANewStoreIsAtTheCurrentSchemaAndAMissingOneIsNotMade) {
  EXPECT_THROW(Store(location(), OpenMode::kExisting), Error);
  EXPECT_FALSE(std::filesystem::exists(location().sqlite_path));
  Store store(location(), OpenMode::kCreate);
  EXPECT_EQ(store.schema_version(), kSchemaVersion);
}

TEST_F(StoreTest, AFileThatIsNotAStoreIsAnErrorNamingIt) {
  std::ofstream(location().sqlite_path) << "just some text, long enough to be read as a header\n";
  try {
    Store store(location(), OpenMode::kExisting);
    FAIL() << "a text file was opened as a store";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(location().display), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST_F(StoreTest, PruneKeepsTheNewestRunsOfEachSeries) {
  Store store(location(), OpenMode::kCreate);
  for (int i = 0; i < 5; ++i) {
    nlohmann::json meta = sample_meta();
    meta["context"]["date"] = fmt::format("2026-01-0{}T00:00:00Z", i + 1);
    std::vector<runfile::RunRow> rows{sample_row("read-raw", 0.1 + i * 0.01)};
    if (i < 2) rows.push_back(sample_row("mmap-raw", 0.1));  // mmap-raw only in the first two
    store.add(record(fmt::format("r{}", i), rows, meta));
  }
  const PruneOutcome outcome = store.prune(2);
  EXPECT_EQ(outcome.samples_removed, 3u);  // read-raw's three oldest
  EXPECT_EQ(outcome.runs_removed, 1u);     // run 3 lost its only row; runs 1-2 keep mmap-raw
  const HistoryData data = store.load();
  EXPECT_EQ(data.runs.size(), 4u);
  for (const Timeline& t : build_timelines(data)) EXPECT_EQ(t.points.size(), 2u);
}

TEST_F(StoreTest, AnAcknowledgementIsKeptAndReplaced) {
  Store store(location(), OpenMode::kCreate);
  store.acknowledge({"aaaa1111@bbbb2222", "s", "r", "expected", "ci", "2026-01-01T00:00:00Z"});
  store.acknowledge(
      {"aaaa1111@bbbb2222", "s", "r", "really expected", "me", "2026-01-02T00:00:00Z"});
  const HistoryData data = store.load();
  ASSERT_EQ(data.acks.size(), 1u);
  EXPECT_EQ(data.acks[0].why, "really expected");
  EXPECT_EQ(data.acks[0].who, "me");
}

// Issue 47: a failed `history add` left a new, empty store behind. The undo removes what the add
// made (the file and the folders it needed), but never a store that holds a run by then: another
// add that made it at the same moment and succeeded keeps its runs.
TEST_F(StoreTest, AFailedAddsNewStoreGoesUnlessAnotherAddStoredARunInIt) {
  const StoreLocation deep = parse_store_location((dir_ / "new/deeper/h.sqlite").string());
  {
    NewStoreUndo undo(deep);
    const Store store(deep, OpenMode::kCreate);
  }
  EXPECT_FALSE(std::filesystem::exists(dir_ / "new")) << "the store or its folders stayed";
  {
    NewStoreUndo undo(deep);
    Store(deep, OpenMode::kCreate).add(record("a", {sample_row("read-raw", 0.1)}));
  }
  EXPECT_TRUE(std::filesystem::exists(dir_ / "new/deeper/h.sqlite")) << "another add's run went";
  {
    NewStoreUndo undo(location());
    const Store store(location(), OpenMode::kCreate);
    undo.keep();
  }
  EXPECT_TRUE(std::filesystem::exists(dir_ / "h.sqlite")) << "a kept store went";
}

}  // namespace
}  // namespace iobench::history
