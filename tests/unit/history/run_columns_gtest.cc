// The runs table's one list of columns: every column it names reaches the store and comes back,
// set and NULL, and the schema versions it makes are the ones stores were made with.
#include <gtest/gtest.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <set>
#include <type_traits>

#include "driver/history/location.hpp"
#include "driver/history/run_columns.hpp"
#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"
#include "driver/history/store_statements.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

// A value of its own for column i, whatever the field's type.
template <typename T>
T value_for(std::size_t i) {
  if constexpr (std::is_same_v<T, std::string>) {
    return "text " + std::to_string(i);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return 1000 + static_cast<std::int64_t>(i);
  } else if constexpr (std::is_same_v<T, std::optional<double>>) {
    return static_cast<double>(i) + 0.25;
  } else if constexpr (std::is_same_v<T, std::optional<bool>>) {
    return i % 2 == 0;
  } else {
    return value_for<typename T::value_type>(i);
  }
}

// The run of every column filled (or, `nulls`, every column that may be NULL left empty).
StoredRun run_of_every_column(bool nulls) {
  StoredRun run;
  const std::span<const RunColumn> columns = run_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::visit(
        [&](auto field) {
          auto& value = field(run);
          using T = std::remove_cvref_t<decltype(value)>;
          value = value_for<T>(i);
          if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, std::int64_t>) {
            if (nulls) value.reset();
          }
        },
        columns[i].field);
  }
  return run;
}

// `run` inserted into a new SQLite store (made by its migrations) through the INSERT made from the
// table, then the store loaded through its SELECT.
StoredRun round_trip(const StoredRun& run, const std::filesystem::path& file) {
  const StoreLocation location = parse_store_location(file.string());
  { Store made(location, OpenMode::kCreate); }
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + file.string());
    AddStatements statements(sql);
    statements.insert_run(run);
  }
  Store store(location, OpenMode::kReadOnly);
  const HistoryData data = store.load();
  EXPECT_EQ(data.runs.size(), 1u);
  return data.runs.empty() ? StoredRun() : data.runs[0];
}

// Every column of `got` and `want` compared; the store assigns run_id.
void expect_every_column_equal(StoredRun got, StoredRun want) {
  for (const RunColumn& column : run_columns()) {
    if (column.assigned_by_store()) continue;
    std::visit([&](auto field) { EXPECT_EQ(field(got), field(want)) << column.name; },
               column.field);
  }
}

TEST(RunColumns, EveryColumnOfTheTableReachesTheStoreAndComesBack) {
  const iobench::test::TempDir dir("run-columns");
  const StoredRun run = run_of_every_column(false);
  const StoredRun back = round_trip(run, dir / "h.sqlite");
  expect_every_column_equal(back, run);
  EXPECT_GT(back.run_id, 0);
}

TEST(RunColumns, EveryColumnThatMayBeNullComesBackEmpty) {
  const iobench::test::TempDir dir("run-columns");
  const StoredRun run = run_of_every_column(true);
  ASSERT_FALSE(run.measured_commit.has_value());
  expect_every_column_equal(round_trip(run, dir / "h.sqlite"), run);
}

TEST(RunColumns, EachColumnIsNamedOnceAndAddedByAVersionThisIobenchKnows) {
  std::set<std::string_view> names;
  int newest = 0;
  for (const RunColumn& column : run_columns()) {
    EXPECT_TRUE(names.insert(column.name).second) << column.name;
    EXPECT_FALSE(column.name.empty());
    EXPECT_GE(column.since_version, 1) << column.name;
    newest = std::max(newest, column.since_version);
  }
  EXPECT_LE(newest, kSchemaVersion);
}

// Stores made by earlier iobench versions have exactly these: a migration may only add columns.
TEST(RunColumns, TheSchemaVersionsMakeTheRunsTableStoresWereMadeWith) {
  EXPECT_EQ(runs_table_statements(1),
            std::vector<std::string>{
                "CREATE TABLE runs (run_id {id}, run_hash TEXT NOT NULL UNIQUE, added_at TEXT "
                "NOT NULL, added_by TEXT NOT NULL, commit_label TEXT, branch_label TEXT, "
                "measured_commit TEXT, measured_dirty INTEGER, run_date TEXT NOT NULL, "
                "config_name TEXT NOT NULL, runs_file TEXT NOT NULL, host TEXT NOT NULL, kernel "
                "TEXT NOT NULL, cpu_model TEXT NOT NULL, cpus_online INTEGER, memory_kib BIGINT, "
                "worker_build TEXT NOT NULL, worker_xxh3 TEXT NOT NULL, iobench_version TEXT NOT "
                "NULL, iobench_build TEXT NOT NULL, cache_mode TEXT NOT NULL, load_average_start "
                "DOUBLE PRECISION, load_average_end DOUBLE PRECISION, busy_cpus_start DOUBLE "
                "PRECISION, row_count INTEGER NOT NULL, finished INTEGER)"});
  EXPECT_EQ(runs_table_statements(2),
            (std::vector<std::string>{"ALTER TABLE runs ADD COLUMN tool TEXT NOT NULL DEFAULT ''",
                                      "ALTER TABLE runs ADD COLUMN conditions TEXT NOT NULL "
                                      "DEFAULT ''",
                                      "ALTER TABLE runs ADD COLUMN context TEXT"}));
  EXPECT_EQ(runs_insert_sql().substr(0, 40), "INSERT INTO runs (run_hash, added_at, ad");
  EXPECT_EQ(runs_select_sql().substr(0, 26), "SELECT run_id, run_hash, a");
}

}  // namespace
}  // namespace iobench::history
