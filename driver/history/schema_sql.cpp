#include "driver/history/schema_sql.hpp"

#include <fmt/format.h>

#include <span>

#include "common/error.hpp"
#include "driver/history/run_columns.hpp"

namespace iobench::history {
namespace {

// Version 1 (docs/formats.md "History store"). Times are whole microseconds (the run file's
// six decimals, exactly), percentages tenths: integers are smaller than doubles in SQLite's
// records, and exact in both backends.
// Each statement is split over lines on purpose (adjacent literals, one statement each).
// NOLINTBEGIN(bugprone-suspicious-missing-comma)
constexpr std::string_view kVersion1[] = {
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "INSERT INTO schema_version (version) VALUES (0)",
    "CREATE TABLE series ("
    " series_id {id}, series_hash TEXT NOT NULL UNIQUE, test TEXT NOT NULL, input TEXT NOT NULL,"
    " sink TEXT NOT NULL, cache_mode TEXT NOT NULL, counters TEXT NOT NULL,"
    " definition_hash TEXT NOT NULL, verified INTEGER NOT NULL, input_identity TEXT NOT NULL,"
    " host_class TEXT NOT NULL)",
    "CREATE TABLE samples ("
    " run_id BIGINT NOT NULL, series_id BIGINT NOT NULL, repeat_no INTEGER NOT NULL,"
    " status INTEGER NOT NULL, exit_code INTEGER, elapsed_us BIGINT NOT NULL,"
    " user_us BIGINT NOT NULL, system_us BIGINT NOT NULL, cpu_pct_tenths INTEGER NOT NULL,"
    " max_rss_kib BIGINT NOT NULL, minflt BIGINT NOT NULL, majflt BIGINT NOT NULL,"
    " nvcsw BIGINT NOT NULL, nivcsw BIGINT NOT NULL, inblock BIGINT NOT NULL,"
    " oublock BIGINT NOT NULL, bytes_out BIGINT, cache_pct_tenths INTEGER, output_hash BIGINT,"
    " row_host TEXT, syscalls BIGINT, context_switches BIGINT, cpu_migrations BIGINT,"
    " page_faults BIGINT, task_clock BIGINT, cycles BIGINT, instructions BIGINT,"
    " cache_misses BIGINT, branch_misses BIGINT, counted_pct_tenths INTEGER)",
    "CREATE TABLE acks ("
    " change_id TEXT PRIMARY KEY, series_hash TEXT NOT NULL, run_hash TEXT NOT NULL,"
    " why TEXT NOT NULL, who TEXT NOT NULL, acked_at TEXT NOT NULL)",
};
// Version 2: other harnesses' results (the runs table's columns: run_columns.cpp) (docs/history.md,
// "Other harnesses"). A run and a series say which tool measured them ('' for iobench's own), a
// series its unit and which way is better, a run the conditions it is judged like with like under;
// an imported sample keeps its value exactly (a Google Benchmark time of a few ns is 0 in whole
// microseconds), and a run that only has a summary of a series keeps its n and bounds.
constexpr std::string_view kVersion2[] = {
    "ALTER TABLE series ADD COLUMN tool TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE series ADD COLUMN unit TEXT NOT NULL DEFAULT 's'",
    "ALTER TABLE series ADD COLUMN direction TEXT NOT NULL DEFAULT 'lower'",
    "ALTER TABLE samples ADD COLUMN value DOUBLE PRECISION",
    "ALTER TABLE samples ADD COLUMN summary_n BIGINT",
    "ALTER TABLE samples ADD COLUMN summary_low DOUBLE PRECISION",
    "ALTER TABLE samples ADD COLUMN summary_high DOUBLE PRECISION",
};
// NOLINTEND(bugprone-suspicious-missing-comma)

std::string filled(std::string_view statement, const Dialect& dialect) {
  return fmt::format(fmt::runtime(statement), fmt::arg("id", dialect.id_column));
}

}  // namespace

const Dialect& sqlite_dialect() {
  static const Dialect kSqlite{
      "sqlite",
      "INTEGER PRIMARY KEY",
      "BEGIN IMMEDIATE",
      "",
      "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = :name",
      "SELECT (SELECT application_id FROM pragma_application_id()),"
      " (SELECT user_version FROM pragma_user_version()), (SELECT COALESCE(group_concat(name, ','),"
      " '') FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\')"};
  return kSqlite;
}

const Dialect& postgresql_dialect() {
  // One advisory lock (any fixed key) makes writers take turns, so that a run added by two
  // runners at once is stored once and two new series of the same cell cannot both be made.
  static const Dialect kPostgresql{
      "postgresql",
      "BIGSERIAL PRIMARY KEY",
      "BEGIN",
      "SELECT 1 FROM pg_advisory_xact_lock(7243)",
      "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()"
      " AND table_name = :name",
      "SELECT 0, 0, COALESCE(string_agg(CAST(table_name AS TEXT), ',' ORDER BY table_name), '')"
      " FROM information_schema.tables WHERE table_schema = current_schema()"};
  return kPostgresql;
}

std::vector<std::string> migration_statements(int to, const Dialect& dialect) {
  std::vector<std::string> statements;
  // The runs table's statements come from its column table (run_columns.cpp), in the place
  // its CREATE TABLE always had: after schema_version's two.
  std::span<const std::string_view> others;
  if (to == 1) {
    others = kVersion1;
  } else if (to == 2) {
    others = kVersion2;
  } else {
    throw Error(fmt::format("no migration to schema version {}", to));
  }
  const std::size_t runs_at = to == 1 ? 2 : 0;
  for (std::size_t i = 0; i < runs_at; ++i) statements.push_back(filled(others[i], dialect));
  for (const std::string& statement : runs_table_statements(to)) {
    statements.push_back(filled(statement, dialect));
  }
  for (std::size_t i = runs_at; i < others.size(); ++i) {
    statements.push_back(filled(others[i], dialect));
  }
  statements.push_back(fmt::format("UPDATE schema_version SET version = {}", to));
  return statements;
}

}  // namespace iobench::history
