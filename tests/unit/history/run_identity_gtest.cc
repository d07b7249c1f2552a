// What a run is in the store (docs/history.md, "Adding runs"): the same bytes under the same
// commit and branch are one run, under another commit or branch another run (issue 47: a metric
// that never changes must still build a history); a store written before run hashes held the
// labels keeps its runs' hashes and still knows its files; --date gives every run of an add its
// date.
#include <gtest/gtest.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "driver/history/add_runs.hpp"
#include "driver/history/import_record.hpp"
#include "driver/history/store.hpp"
#include "driver/history/timeline.hpp"
#include "tests/unit/history/fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using test::sample_meta;
using test::sample_row;
using test::write_run;

Labels labels(std::optional<std::string> commit, std::optional<std::string> branch) {
  Labels l;
  l.commit = std::move(commit);
  l.branch = std::move(branch);
  return l;
}

class RunIdentityTest : public ::testing::Test {
 protected:
  StoreLocation location() const { return parse_store_location((dir_ / "h.sqlite").string()); }
  // The one run file of these tests, under `given` labels.
  RunRecord record(const Labels& given) {
    if (runs_.empty()) runs_ = write_run(dir_.path(), "a", sample_meta(), {sample_row("wc", 0.1)});
    return load_run_record(runs_, given, test::kNoEnvironment);
  }
  // What the previous version stored: the run's hash was its file's hash alone.
  void make_hash_the_files(std::int64_t run_id, const std::string& file_hash) {
    soci::session sql(*soci::factory_sqlite3(), "db=" + location().sqlite_path.string());
    sql << "UPDATE runs SET run_hash = :h WHERE run_id = :id", soci::use(file_hash),
        soci::use(static_cast<long long>(run_id));
  }
  iobench::test::TempDir dir_{"history-run-identity"};
  std::filesystem::path runs_;
};

TEST_F(RunIdentityTest, TheHashHoldsTheBytesTheCommitAndTheBranch) {
  const RunRecord c1 = record(labels("c1", "main"));
  EXPECT_EQ(run_hash_of(c1), run_hash_of(record(labels("c1", "main"))));
  EXPECT_EQ(run_hash_of(c1).size(), c1.file.hash.size());
  EXPECT_NE(run_hash_of(c1), c1.file.hash);
  EXPECT_NE(run_hash_of(c1), run_hash_of(record(labels("c2", "main"))));
  EXPECT_NE(run_hash_of(c1), run_hash_of(record(labels("c1", "other"))));
  EXPECT_NE(run_hash_of(c1), run_hash_of(record(labels("c1", std::nullopt))));
  // Unknown is not empty, and the labels do not run into each other.
  EXPECT_NE(run_hash_of(record(labels("c1", std::nullopt))), run_hash_of(record(labels("c1", ""))));
  EXPECT_NE(run_hash_of(record(labels("c1m", "ain"))), run_hash_of(record(labels("c1", "main"))));
}

TEST_F(RunIdentityTest, TheSameBytesUnderAnotherCommitOrBranchAreAnotherRun) {
  Store store(location(), OpenMode::kCreate);
  const AddOutcome c1 = store.add(record(labels("c1", "main")));
  const AddOutcome c2 = store.add(record(labels("c2", "main")));
  const AddOutcome c3 = store.add(record(labels("c3", "main")));
  const AddOutcome other_branch = store.add(record(labels("c1", "other")));
  const AddOutcome again = store.add(record(labels("c1", "main")));
  EXPECT_TRUE(c1.stored && c2.stored && c3.stored && other_branch.stored);
  EXPECT_FALSE(again.stored);
  EXPECT_EQ(again.run_id, c1.run_id);
  const HistoryData data = store.load();
  ASSERT_EQ(data.runs.size(), 4u);
  EXPECT_EQ(data.samples.size(), 4u);
  EXPECT_EQ(data.series.size(), 1u);
  EXPECT_EQ(data.runs[2].labels.commit, "c3");
  const std::vector<Timeline> timelines = build_timelines(data);
  ASSERT_EQ(timelines.size(), 1u);
  EXPECT_EQ(timelines[0].points.size(), 4u);
}

TEST_F(RunIdentityTest, ARunStoredByThePreviousVersionKeepsItsHashAndIsStillKnown) {
  const RunRecord c1 = record(labels("c1", "main"));
  {
    Store store(location(), OpenMode::kCreate);
    make_hash_the_files(store.add(c1).run_id, c1.file.hash);
  }
  Store store(location(), OpenMode::kExisting);
  Ack ack;  // an ack of the old run names it by the old hash
  ack.series_hash = store.load().series.at(0).series_hash;
  ack.run_hash = c1.file.hash;
  ack.change_id = change_id(ack.series_hash, ack.run_hash);
  ack.why = "expected";
  ack.who = "test";
  ack.acked_at = "2026-01-01T00:00:00Z";
  store.acknowledge(ack);
  // The same bytes and labels: the old run, not a second one; under another commit: a new run.
  EXPECT_FALSE(store.add(c1).stored);
  const std::vector<std::string> lines =
      add_run_files(store, {runs_}, labels("c1", "main"), test::kNoEnvironment);
  EXPECT_NE(lines.at(0).find("is already in"), std::string::npos) << lines.at(0);
  EXPECT_TRUE(store.add(record(labels("c2", "main"))).stored);
  EXPECT_TRUE(store.add(record(labels("c1", std::nullopt))).stored);
  const HistoryData data = store.load();
  ASSERT_EQ(data.runs.size(), 3u);
  EXPECT_EQ(data.runs[0].run_hash, c1.file.hash);
  EXPECT_EQ(data.runs[1].run_hash, run_hash_of(record(labels("c2", "main"))));
  ASSERT_EQ(data.acks.size(), 1u);
  EXPECT_EQ(data.acks[0].change_id, change_id(data.series[0].series_hash, data.runs[0].run_hash));
  // Kept by a prune that keeps the old run (acks go only with their run).
  store.prune(3);
  EXPECT_EQ(store.load().acks.size(), 1u);
}

TEST_F(RunIdentityTest, TheDateGivenIsEveryRunsDateRunFilesAndImportsAlike) {
  const std::filesystem::path hyperfine = dir_ / "c1.json";
  std::ofstream(hyperfine)
      << R"({"results": [{"command": "x", "mean": 0.1, "times": [0.1, 0.2]}]})";
  const std::filesystem::path native =
      write_run(dir_.path(), "n", sample_meta(), {sample_row("wc", 0.1)});
  AddOptions options;
  EXPECT_EQ(load_any_record(native, options, {}, test::kNoEnvironment).facts.date,
            "2026-01-01T00:00:00Z");  // the meta file's
  options.date = "2026-12-01T10:00:00Z";
  EXPECT_EQ(load_any_record(native, options, {}, test::kNoEnvironment).facts.date, *options.date);
  EXPECT_EQ(load_any_record(hyperfine, options, {}, test::kNoEnvironment).facts.date,
            *options.date);
  Store store(location(), OpenMode::kCreate);
  add_run_files(store, {native, hyperfine}, labels("c1", std::nullopt), test::kNoEnvironment,
                options);
  const HistoryData data = store.load();
  ASSERT_EQ(data.runs.size(), 2u);
  EXPECT_EQ(data.runs[0].date, *options.date);
  EXPECT_EQ(data.runs[1].date, *options.date);
}

}  // namespace
}  // namespace iobench::history
