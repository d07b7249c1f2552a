// Opening a store (docs/history.md, "The store"): what is refused before anything is written, the
// read-only connection of the commands that read, and the schema and WAL set up under a lock, so
// that any number of first adds into a store that does not exist yet all land.
#include <fmt/format.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/sqlite3/soci-sqlite3.h>
#include <unistd.h>  // access

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "common/error.hpp"
#include "driver/history/location.hpp"
#include "driver/history/store_impl.hpp"

namespace iobench::history {
namespace {

namespace fs = std::filesystem;

// How long an SQLite writer waits for another to finish before it gives up (docs/history.md,
// "Many writers"): an add of a large run takes well under a second.
constexpr int kSqliteBusyTimeoutS = 60;

[[noreturn]] void refuse(const StoreLocation& location, std::string_view why) {
  throw Error(fmt::format("{}: {}", location.display, why));
}

// A URI filename (sqlite3 is built with URIs here and told to take them): "?" and "#" in a path
// would otherwise end it, and mode=ro / immutable are only said this way.
std::string sqlite_uri(const fs::path& path, std::string_view query) {
  std::string uri = "file://";
  for (const char c : fs::absolute(path).lexically_normal().string()) {
    if (c == '%' || c == '?' || c == '#') {
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      uri += c;
    }
  }
  return fmt::format("{}?{}", uri, query);
}

std::string sqlite_connect_string(const std::string& uri, bool read_only) {
  std::string quoted;
  for (const char c : uri) {
    if (c == '"') quoted += '\\';
    quoted += c;
  }
  // timeout: SOCI sets sqlite3's busy timeout right after the open, before any statement.
  return fmt::format("db=\"{}\" timeout={}{}", quoted, kSqliteBusyTimeoutS,
                     read_only ? " readonly=1" : "");
}

std::uintmax_t size_or_zero(const fs::path& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  return ec ? 0 : size;
}

// What is refused before sqlite3 sees the file, so that it stays byte for byte as it was: a
// missing file (unless it is to be made), a folder, an empty file when reading, and any file
// whose header is not SQLite's.
void check_sqlite_file(const StoreLocation& location, OpenMode mode) {
  const fs::path& path = location.sqlite_path;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) {
    if (mode == OpenMode::kCreate) return;
    refuse(location, "no history store there (iobench history add RUNS.tsv makes one)");
  }
  if (fs::is_directory(status)) refuse(location, "a folder, not a history store");
  fs::path wal = path;
  wal += "-wal";
  if (size_or_zero(path) == 0) {
    // A store that another add is making right now: an empty file, or its first pages still
    // in the log beside it.
    if (mode == OpenMode::kCreate || size_or_zero(wal) > 0) return;
    refuse(location,
           "an empty file, not a history store (iobench history add RUNS.tsv makes one); left "
           "as it is");
  }
  const std::optional<bool> is_database = begins_as_sqlite_database(path);
  if (!is_database) refuse(location, "cannot be read (permissions?)");
  if (!*is_database) {
    refuse(location, "not an iobench history store (not an SQLite database); left as it is");
  }
}

// The read-only connection's URI: immutable where no writer can be at work (a folder we cannot
// write and no log beside the file), since sqlite3 cannot then make the WAL's shared-memory file
// and would refuse to read.
std::string read_only_uri(const fs::path& path) {
  fs::path folder = fs::absolute(path).parent_path();
  fs::path wal = path;
  wal += "-wal";
  std::error_code ec;
  const bool writable_folder = ::access(folder.c_str(), W_OK) == 0;
  const bool immutable = !writable_folder && !fs::exists(wal, ec);
  return sqlite_uri(path, immutable ? "mode=ro&immutable=1" : "mode=ro");
}

// sqlite3's settings for the whole process, before its first connection: a store's connection is
// only ever used by one thread at a time (history add reads files on the others, never the
// store), so sqlite3's own locks around every call and its memory statistics, a mutex taken on
// each of its allocations, cost without protecting anything (docs/history.md, "Performance").
// After an earlier connection sqlite3 refuses them (SQLITE_MISUSE) and keeps its defaults: safe,
// only slower. URI filenames are this build's default too; asked for, not assumed.
void configure_sqlite_once() {
  static const bool kConfigured = [] {
    sqlite_api::sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
    sqlite_api::sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    sqlite_api::sqlite3_config(SQLITE_CONFIG_URI, 1);
    return true;
  }();
  (void)kConfigured;
}

// What a database says it is: an iobench store (marked, or by its tables), an empty database
// (a store to be made), or another program's.
enum class Kind { kStore, kEmpty, kForeign };

struct Identity {
  Kind kind = Kind::kEmpty;
  bool stamped = false;  // SQLite: its application_id is iobench's
  std::string why;       // kForeign: what it has instead
};

Identity identify(Store::Impl& impl) {
  int application_id = 0;
  int user_version = 0;
  std::string table_list;
  impl.sql << impl.dialect->identity, soci::into(application_id), soci::into(user_version),
      soci::into(table_list);
  std::vector<std::string> tables;
  for (std::size_t from = 0; from < table_list.size();) {
    const std::size_t comma = std::min(table_list.find(',', from), table_list.size());
    tables.push_back(table_list.substr(from, comma - from));
    from = comma + 1;
  }
  Identity identity;
  identity.stamped = application_id == kSqliteApplicationId;
  const bool all_ours = std::all_of(
      std::begin(kStoreTables), std::end(kStoreTables), [&tables](std::string_view name) {
        return std::find(tables.begin(), tables.end(), name) != tables.end();
      });
  if (identity.stamped || (application_id == 0 && all_ours)) {
    identity.kind = Kind::kStore;
  } else if (application_id == 0 && user_version == 0 && tables.empty()) {
    identity.kind = Kind::kEmpty;
  } else {
    identity.kind = Kind::kForeign;
    if (application_id != 0) {
      identity.why = fmt::format("another program's SQLite database: application_id {:#x}",
                                 static_cast<unsigned>(application_id));
    } else if (tables.empty()) {
      identity.why =
          fmt::format("another program's SQLite database: user_version {}", user_version);
    } else {
      identity.why = fmt::format("a database with other tables: {}", fmt::join(tables, ", "));
    }
  }
  return identity;
}

Identity refuse_foreign(Store::Impl& impl) {
  Identity identity = identify(impl);
  if (identity.kind == Kind::kForeign) {
    refuse(impl.location,
           fmt::format("not an iobench history store ({}); left as it is", identity.why));
  }
  return identity;
}

bool is_busy(const soci::sqlite3_soci_error& e) {
  const int primary = e.result() & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// Switching to WAL takes the file's exclusive lock, and sqlite3 answers SQLITE_BUSY at once,
// without its busy handler, while another connection holds any lock: tried again until the busy
// timeout, as every other statement waits.
void enable_wal(Store::Impl& impl) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(kSqliteBusyTimeoutS);
  for (auto pause = std::chrono::milliseconds(1);;
       pause = std::min(pause * 2, std::chrono::milliseconds(50))) {
    try {
      std::string journal;
      impl.sql << "PRAGMA journal_mode = WAL", soci::into(journal);
      return;
    } catch (const soci::sqlite3_soci_error& e) {
      if (!is_busy(e) || std::chrono::steady_clock::now() >= deadline) throw;
    }
    std::this_thread::sleep_for(pause);
  }
}

Identity connect_sqlite(Store::Impl& impl, OpenMode mode) {
  impl.dialect = &sqlite_dialect();
  const fs::path& path = impl.location.sqlite_path;
  check_sqlite_file(impl.location, mode);
  configure_sqlite_once();
  if (mode == OpenMode::kReadOnly) {
    impl.sql.open(*soci::factory_sqlite3(), sqlite_connect_string(read_only_uri(path), true));
    return refuse_foreign(impl);
  }
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  impl.sql.open(*soci::factory_sqlite3(),
                sqlite_connect_string(sqlite_uri(path, "mode=rwc"), false));
  Identity identity = refuse_foreign(impl);  // before the WAL pragma writes the header
  enable_wal(impl);
  // WAL with NORMAL keeps the store consistent after a crash; only the last commit may be lost
  // to a power cut, which a re-add restores (a run is stored once).
  impl.sql << "PRAGMA synchronous = NORMAL";
  // A checkpoint (an fsync) every 40 MiB of log rather than SQLite's 4 MiB: adding a thousand
  // runs in one command should wait for the disk a few times, not a hundred.
  impl.sql << "PRAGMA wal_autocheckpoint = 10000";
  return identity;
}

Identity connect(Store::Impl& impl, OpenMode mode) {
  if (impl.location.backend == Backend::kSqlite) return connect_sqlite(impl, mode);
  impl.dialect = &postgresql_dialect();
  impl.sql.open(*soci::factory_postgresql(), impl.location.postgresql_conninfo);
  impl.sql << "SET client_min_messages TO WARNING";  // no NOTICE lines on stderr
  // The server itself then refuses any write of a reading command.
  if (mode == OpenMode::kReadOnly) {
    impl.sql << "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY";
  }
  return refuse_foreign(impl);
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

// The schema made or brought up to date, and an SQLite store marked, in one write transaction
// (BEGIN IMMEDIATE: writers in turn), all checked again inside it: another writer may have made
// the store meanwhile.
void set_up_schema(Store::Impl& impl) {
  impl.write([&impl] {
    const Identity identity = refuse_foreign(impl);
    impl.version = read_version(impl);
    refuse_newer(impl, impl.version);
    for (int to = impl.version + 1; to <= kSchemaVersion; ++to) {
      for (const auto& statement : migration_statements(to, *impl.dialect)) impl.sql << statement;
      impl.version = to;
    }
    if (impl.location.backend == Backend::kSqlite) {
      // A migrated store's header says its new version too, not only an unmarked one's.
      if (!identity.stamped) {
        impl.sql << fmt::format("PRAGMA application_id = {}", kSqliteApplicationId);
      }
      impl.sql << fmt::format("PRAGMA user_version = {}", impl.version);
    }
  });
}

}  // namespace

void open_store(Store::Impl& impl, OpenMode mode) {
  const Identity identity = connect(impl, mode);
  if (mode == OpenMode::kReadOnly) {
    if (identity.kind == Kind::kEmpty) {
      refuse(impl.location, "no history store there (iobench history add RUNS.tsv makes one)");
    }
    impl.version = read_version(impl);
    refuse_newer(impl, impl.version);
    if (impl.version < kSchemaVersion) {
      refuse(impl.location, fmt::format("the store's schema is version {}; iobench history add "
                                        "brings it to version {}",
                                        impl.version, kSchemaVersion));
    }
    return;
  }
  impl.version = read_version(impl);
  refuse_newer(impl, impl.version);
  const bool unmarked = impl.location.backend == Backend::kSqlite && !identity.stamped;
  if (impl.version < kSchemaVersion || unmarked) set_up_schema(impl);
}

}  // namespace iobench::history
