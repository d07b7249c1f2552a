#include "driver/history/store.hpp"

#include <fmt/format.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <filesystem>

#include "common/error.hpp"
#include "driver/history/store_impl.hpp"
#include "driver/history/timeline.hpp"

namespace iobench::history {
namespace {

// How long an SQLite writer waits for another to finish before it gives up (docs/history.md,
// "Many writers"): an add of a large run takes well under a second.
constexpr int kSqliteBusyTimeoutS = 60;

std::string sqlite_connect_string(const std::filesystem::path& path) {
  std::string quoted;
  for (const char c : path.string()) {
    if (c == '"') quoted += '\\';
    quoted += c;
  }
  return fmt::format("db=\"{}\" timeout={}", quoted, kSqliteBusyTimeoutS);
}

int read_version(Store::Impl& impl) {
  long long tables = 0;
  const std::string name = "schema_version";
  impl.sql << impl.dialect->table_exists, soci::use(name), soci::into(tables);
  if (tables == 0) return 0;
  int version = 0;
  impl.sql << "SELECT version FROM schema_version", soci::into(version);
  return version;
}

void refuse_newer(const Store::Impl& impl, int version) {
  if (version > kSchemaVersion) {
    throw Error(fmt::format(
        "{}: the store's schema is version {}, newer than this iobench's ({}); use a newer "
        "iobench to read it",
        impl.location.display, version, kSchemaVersion));
  }
}

void migrate(Store::Impl& impl) {
  impl.write([&impl] {
    impl.version = read_version(impl);  // again: another writer may have migrated meanwhile
    refuse_newer(impl, impl.version);
    for (int to = impl.version + 1; to <= kSchemaVersion; ++to) {
      for (const auto& statement : migration_statements(to, *impl.dialect)) impl.sql << statement;
      impl.version = to;
    }
  });
}

// sqlite3's settings for the whole process, before its first connection: a store's connection is
// only ever used by one thread at a time (history add reads files on the others, never the
// store), so sqlite3's own locks around every call and its memory statistics, a mutex taken on
// each of its allocations, cost without protecting anything (docs/history.md, "Performance").
// After an earlier connection sqlite3 refuses them (SQLITE_MISUSE) and keeps its defaults: safe,
// only slower.
void configure_sqlite_once() {
  static const bool kConfigured = [] {
    sqlite_api::sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    sqlite_api::sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return true;
  }();
  (void)kConfigured;
}

void connect(Store::Impl& impl, OpenMode mode) {
  if (impl.location.backend == Backend::kPostgresql) {
    impl.dialect = &postgresql_dialect();
    impl.sql.open(*soci::factory_postgresql(), impl.location.postgresql_conninfo);
    impl.sql << "SET client_min_messages TO WARNING";  // no NOTICE lines on stderr
    return;
  }
  impl.dialect = &sqlite_dialect();
  const std::filesystem::path& path = impl.location.sqlite_path;
  std::error_code ec;
  if (mode == OpenMode::kExisting && !std::filesystem::exists(path, ec)) {
    throw Error(fmt::format("{}: no history store there (iobench history add RUNS.tsv makes one)",
                            impl.location.display));
  }
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  configure_sqlite_once();
  impl.sql.open(*soci::factory_sqlite3(), sqlite_connect_string(path));
  std::string journal;
  impl.sql << "PRAGMA journal_mode = WAL", soci::into(journal);
  // WAL with NORMAL keeps the store consistent after a crash; only the last commit may be lost
  // to a power cut, which a re-add restores (a run is stored once).
  impl.sql << "PRAGMA synchronous = NORMAL";
  // A checkpoint (an fsync) every 40 MiB of log rather than SQLite's 4 MiB: adding a thousand
  // runs in one command should wait for the disk a few times, not a hundred.
  impl.sql << "PRAGMA wal_autocheckpoint = 10000";
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string line;
  bool space = false;
  for (const char c : text) {
    if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
      space = !line.empty();
      continue;
    }
    if (space) line += ' ';
    space = false;
    line += c;
  }
  return line;
}

void rethrow_as_store_error(const StoreLocation& location, std::string_view doing) {
  try {
    throw;
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(fmt::format("{}: {}: {}", location.display, doing, one_line(e.what())));
  }
}

Store::Store(const StoreLocation& location, OpenMode mode) : impl_(std::make_unique<Impl>()) {
  impl_->location = location;
  try {
    connect(*impl_, mode);
    impl_->version = read_version(*impl_);
    refuse_newer(*impl_, impl_->version);
    if (impl_->version < kSchemaVersion) migrate(*impl_);
  } catch (...) {
    rethrow_as_store_error(location, "cannot open the history store");
  }
}

Store::~Store() = default;

const StoreLocation& Store::location() const {
  return impl_->location;
}

int Store::schema_version() const {
  return impl_->version;
}

void Store::acknowledge(const Ack& ack) {
  try {
    impl_->write([&] {
      impl_->sql << "DELETE FROM acks WHERE change_id = :c", soci::use(ack.change_id);
      impl_->sql << "INSERT INTO acks (change_id, series_hash, run_hash, why, who, acked_at)"
                    " VALUES (:c, :s, :r, :why, :who, :at)",
          soci::use(ack.change_id), soci::use(ack.series_hash), soci::use(ack.run_hash),
          soci::use(ack.why), soci::use(ack.who), soci::use(ack.acked_at);
    });
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot record the acknowledgement");
  }
}

PruneOutcome Store::prune(std::size_t keep) {
  try {
    return impl_->write([&] {
      const HistoryData data = load();
      std::vector<long long> series_ids;
      std::vector<long long> run_ids;
      PruneOutcome outcome;
      for (const Timeline& timeline : build_timelines(data)) {
        if (timeline.points.size() <= keep) continue;
        for (std::size_t i = 0; i + keep < timeline.points.size(); ++i) {
          series_ids.push_back(timeline.series->series_id);
          run_ids.push_back(timeline.points[i].run->run_id);
          outcome.samples_removed += timeline.points[i].samples.size();
        }
      }
      if (!series_ids.empty()) {
        impl_->sql << "DELETE FROM samples WHERE series_id = :s AND run_id = :r",
            soci::use(series_ids), soci::use(run_ids);
      }
      long long runs_before = 0;
      long long runs_after = 0;
      impl_->sql << "SELECT COUNT(*) FROM runs", soci::into(runs_before);
      impl_->sql << "DELETE FROM runs WHERE NOT EXISTS"
                    " (SELECT 1 FROM samples WHERE samples.run_id = runs.run_id)";
      impl_->sql << "DELETE FROM acks WHERE run_hash NOT IN (SELECT run_hash FROM runs)";
      impl_->sql << "SELECT COUNT(*) FROM runs", soci::into(runs_after);
      outcome.runs_removed = static_cast<std::size_t>(runs_before - runs_after);
      return outcome;
    });
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot prune");
  }
}

}  // namespace iobench::history
