#pragma once
// The history store's tables and their migrations (docs/formats.md "History store"). One SQL
// text serves SQLite and PostgreSQL; the few words that differ are the Dialect's.
#include <string>
#include <string_view>
#include <vector>

namespace iobench::history {

// The schema this iobench writes. A store at a newer version is refused (exit 2): an older
// iobench cannot know what the newer columns mean.
inline constexpr int kSchemaVersion = 2;

// What marks an SQLite file as an iobench store (docs/history.md, "What is a store"): its header's
// application_id is this ("iobc" in ASCII), its user_version the schema version. A store made
// before the mark (application_id 0) is known by its tables and stamped when opened for writing.
inline constexpr int kSqliteApplicationId = 0x696F6263;

// The tables every iobench store has, whatever its version: a database that has tables but not
// all of these is another program's (PostgreSQL has no header mark; this set is the mark).
inline constexpr std::string_view kStoreTables[] = {"schema_version", "runs", "series", "samples",
                                                    "acks"};

struct Dialect {
  std::string_view name;          // "sqlite", "postgresql"
  std::string_view id_column;     // an auto-assigned 64-bit primary key
  std::string_view begin_write;   // opens a transaction that writers take one at a time
  std::string_view lock_writers;  // run inside it ("" when begin_write already does it)
  std::string_view table_exists;  // SELECT COUNT(*) ... with :name
  // One row: application_id, user_version (SQLite's header; 0, 0 on PostgreSQL) and the names of
  // every table of the store's schema, comma-separated. One statement, so one snapshot: read in
  // three, a first add committing between them looked like another program's database.
  std::string_view identity;
};
const Dialect& sqlite_dialect();
const Dialect& postgresql_dialect();

// The statements that bring a store from version `to - 1` to `to` (1 creates every table), with
// the dialect's words filled in.
std::vector<std::string> migration_statements(int to, const Dialect& dialect);

}  // namespace iobench::history
