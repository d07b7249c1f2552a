#pragma once
// Where a history store lives (docs/history.md, "The store"): a plain path or `sqlite:PATH` is an
// SQLite file; `postgresql://...` (or `postgres://...`), or a libpq keyword=value string
// ("host=db dbname=bench"), a PostgreSQL server, as libpq reads it. A name that looks like a URL
// of another scheme is refused, never taken for a path.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace iobench::history {

enum class Backend { kSqlite, kPostgresql };

struct StoreLocation {
  Backend backend = Backend::kSqlite;
  std::filesystem::path sqlite_path;  // kSqlite
  std::string postgresql_url;         // kPostgresql: the URL as given
  // kPostgresql: the URL as libpq's keyword=value connection string (libpq parsed it): SOCI would
  // take a URL's scheme for its own backend name.
  std::string postgresql_conninfo;
  // What messages call it: the path, or the URL with its password replaced by "***".
  std::string display;
};

// `text` with every password it may carry replaced by "***": the PASSWORD of a URL's
// `USER:PASSWORD@` and the value of a `password=VALUE` keyword (a conninfo string or a URL's query,
// quoted or not). Every message that carries a store's location passes through it, libpq's too.
std::string redact_passwords(std::string_view text);

// The default store when neither --history nor the config names one.
inline constexpr std::string_view kDefaultStorePath = "results/history.sqlite";
inline constexpr std::string_view kStoreEnvironmentVariable = "IOBENCH_HISTORY";

// Parses a store name. Throws iobench::Error (exit 2), naming `text` with its passwords hidden,
// for an empty name, an unknown scheme ("mysql://...", "pg://...", "https://..."), a known one
// with one slash ("postgresql:/h/db"), `sqlite:` without a path, or a PostgreSQL URL libpq cannot
// parse (PQconninfoParse: the same parser the connection uses, so nothing connects first).
StoreLocation parse_store_location(std::string_view text);

// Whether `text` names a store by its scheme (sqlite:, postgresql://, postgres://), so could not
// be a command or a config.
bool has_store_scheme(std::string_view text);

// Whether the file at `path` begins with SQLite's 16-byte header (a database, not merely a file
// named like one); nullopt when it cannot be opened.
std::optional<bool> begins_as_sqlite_database(const std::filesystem::path& path);

// The store to use: `given` when set and not empty, else $IOBENCH_HISTORY (through `lookup`),
// else kDefaultStorePath. A relative SQLite path from `given` resolves against `base_dir` (the
// config's folder for the config key `history`; empty: the current folder).
using EnvLookup = std::function<const char*(const char*)>;
StoreLocation choose_store_location(const std::optional<std::string>& given,
                                    const EnvLookup& lookup,
                                    const std::filesystem::path& base_dir = {});

}  // namespace iobench::history
