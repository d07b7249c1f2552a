// Store names: paths, sqlite:, postgresql:// URLs (checked by libpq's own parser), the default.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "common/error.hpp"
#include "driver/history/location.hpp"
#include "tests/unit/history/fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_store_location(text);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "";
}

TEST(StoreLocation, APlainPathAndSqlitePrefixAreSqliteFiles) {
  EXPECT_EQ(parse_store_location("h.sqlite").sqlite_path, "h.sqlite");
  EXPECT_EQ(parse_store_location("sqlite:dir/h.db").sqlite_path, "dir/h.db");
  EXPECT_EQ(parse_store_location("sqlite:///abs/h.db").sqlite_path, "/abs/h.db");
  EXPECT_EQ(parse_store_location("h.sqlite").backend, Backend::kSqlite);
}

TEST(StoreLocation, APostgresqlUrlGoesToLibpqAndHidesItsPassword) {
  const StoreLocation l = parse_store_location("postgresql://ci:secret@db.example:5433/bench");
  EXPECT_EQ(l.backend, Backend::kPostgresql);
  EXPECT_EQ(l.postgresql_url, "postgresql://ci:secret@db.example:5433/bench");
  EXPECT_EQ(l.display, "postgresql://ci:***@db.example:5433/bench");
  EXPECT_EQ(l.postgresql_conninfo,
            "user='ci' password='secret' dbname='bench' host='db.example' port='5433'");
  EXPECT_EQ(parse_store_location("postgresql:///x?host=/run/a%27b").postgresql_conninfo,
            R"(dbname='x' host='/run/a\'b')");
  EXPECT_EQ(parse_store_location("postgres://localhost/x").backend, Backend::kPostgresql);
}

TEST(StoreLocation, NamesThatDoNotParseAreOneLineErrors) {
  EXPECT_NE(error_of("mysql://host/db").find("unknown store scheme 'mysql'"), std::string::npos);
  EXPECT_NE(error_of("sqlite:").find("no path after sqlite:"), std::string::npos);
  EXPECT_NE(error_of("").find("empty store name"), std::string::npos);
  const std::string bad = error_of("postgresql://ci:pw@host/db?nosuchoption=1");
  EXPECT_NE(bad.find("not a PostgreSQL URL libpq can read"), std::string::npos) << bad;
  EXPECT_NE(bad.find("nosuchoption"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("pw@"), std::string::npos) << "the password shows: " << bad;
  EXPECT_EQ(bad.find('\n'), std::string::npos);
  EXPECT_NE(error_of("postgresql://[::1/db").find("libpq"), std::string::npos);
}

TEST(StoreLocation, AMalformedUrlsPasswordNeverShows) {
  // libpq quotes the URL it could not parse in its message.
  const std::string bad = error_of("postgresql://ci:cipw@[::1");
  EXPECT_NE(bad.find("IPv6"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("cipw"), std::string::npos) << bad;
  EXPECT_NE(bad.find("postgresql://ci:***@[::1"), std::string::npos) << bad;
  const std::string keyword = error_of("postgresql://ci@host/db?password=cipw&nosuch=1");
  EXPECT_EQ(keyword.find("cipw"), std::string::npos) << keyword;
  EXPECT_EQ(parse_store_location("postgresql://h/db?password=cipw").display,
            "postgresql://h/db?password=***");
}

TEST(RedactPasswords, HidesEveryFormOfAPassword) {
  // A URL's user part, whatever the scheme, and a password with an unencoded '@' or '/'.
  EXPECT_EQ(redact_passwords("postgresql://ci:secret@db:5432/x"), "postgresql://ci:***@db:5432/x");
  EXPECT_EQ(redact_passwords("postgres://ci:se@cr/et@db/x"), "postgres://ci:***@db/x");
  EXPECT_EQ(redact_passwords("postgresql://ci:secret@[::1"), "postgresql://ci:***@[::1");
  EXPECT_EQ(redact_passwords("in URI: \"postgresql://u:p%40ss@h/d\"; more"),
            "in URI: \"postgresql://u:***@h/d\"; more");
  // Two URLs on one line, each its own.
  EXPECT_EQ(redact_passwords("a postgresql://u:p1@h/d, b postgresql://v@k/e"),
            "a postgresql://u:***@k/e");  // the last '@' of the line: more hidden, never less
  // Keywords: conninfo, quoted as libpq quotes, any case, spaces around '=', a URL's query.
  EXPECT_EQ(redact_passwords("host='h' password='se cr\\'et' dbname='x'"),
            "host='h' password=*** dbname='x'");
  EXPECT_EQ(redact_passwords("user=ci PASSWORD = hunter2 port=5"), "user=ci PASSWORD = *** port=5");
  EXPECT_EQ(redact_passwords("postgresql://h/db?sslmode=require&password=hunter2&x=1"),
            "postgresql://h/db?sslmode=require&password=***&x=1");
  // Nothing to hide: left as it is.
  EXPECT_EQ(redact_passwords("postgresql://ci@db:5432/x"), "postgresql://ci@db:5432/x");
  EXPECT_EQ(redact_passwords("postgresql://[::1]:5432/x"), "postgresql://[::1]:5432/x");
  EXPECT_EQ(redact_passwords("results/history.sqlite"), "results/history.sqlite");
  EXPECT_EQ(redact_passwords(""), "");
}

TEST(StoreLocation, TheDefaultIsTheEnvironmentsThenResultsHistorySqlite) {
  EXPECT_EQ(choose_store_location(std::nullopt, test::kNoEnvironment).sqlite_path,
            "results/history.sqlite");
  const EnvLookup env = [](const char* name) -> const char* {
    return std::string_view(name) == "IOBENCH_HISTORY" ? "sqlite:/ci/h.db" : nullptr;
  };
  EXPECT_EQ(choose_store_location(std::nullopt, env).sqlite_path, "/ci/h.db");
  EXPECT_EQ(choose_store_location(std::string("given.db"), env).sqlite_path, "given.db");
}

TEST(StoreLocation, AConfigsRelativePathResolvesAgainstItsFolder) {
  EXPECT_EQ(choose_store_location(std::string("h.db"), test::kNoEnvironment, "configs").sqlite_path,
            "configs/h.db");
  EXPECT_EQ(
      choose_store_location(std::string("/abs/h.db"), test::kNoEnvironment, "configs").sqlite_path,
      "/abs/h.db");
  EXPECT_EQ(choose_store_location(std::string("postgresql://h/db"), test::kNoEnvironment, "configs")
                .backend,
            Backend::kPostgresql);
}

TEST(StoreLocation, OnlyTheThreeSchemesNameAStoreByTheirText) {
  EXPECT_TRUE(has_store_scheme("sqlite:h.db"));
  EXPECT_TRUE(has_store_scheme("postgresql://localhost/x"));
  EXPECT_TRUE(has_store_scheme("postgres://localhost/x"));
  EXPECT_FALSE(has_store_scheme("h.sqlite"));
  EXPECT_FALSE(has_store_scheme("postgresql:/x"));
  EXPECT_FALSE(has_store_scheme("mysql://localhost/x"));
}

TEST(StoreLocation, ADatabaseIsKnownByItsSixteenByteHeaderNotItsName) {
  const iobench::test::TempDir dir("location");
  const auto write = [&](const char* name, std::string_view bytes) {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  };
  const std::string header("SQLite format 3\0", 16);
  EXPECT_EQ(begins_as_sqlite_database(write("db", header + "pages")), true);
  EXPECT_EQ(begins_as_sqlite_database(write("exact", header)), true);
  EXPECT_EQ(begins_as_sqlite_database(write("short.sqlite", header.substr(0, 15))), false);
  EXPECT_EQ(begins_as_sqlite_database(write("text.sqlite", "SQLite format 3 and more")), false);
  EXPECT_EQ(begins_as_sqlite_database(write("empty.sqlite", "")), false);
  EXPECT_EQ(begins_as_sqlite_database(dir / "absent.sqlite"), std::nullopt);
}

// Issue 47: a mistyped scheme showed the whole URL, password and all, and one slash made a path.
TEST(StoreLocation, AMistypedSchemeIsRefusedWithItsPasswordHidden) {
  for (const std::string_view name :
       {"mysql://ci:s3cr3tpw@h/db", "pg://ci:s3cr3tpw@h/db", "postgresq://ci:s3cr3tpw@h/db",
        "https://ci:s3cr3tpw@h/db", "postgresql:/ci:s3cr3tpw@db/bench",
        "postgres:ci:s3cr3tpw@db/bench"}) {
    const std::string message = error_of(name);
    EXPECT_FALSE(message.empty()) << name << " was taken for a path";
    EXPECT_EQ(message.find("s3cr3tpw"), std::string::npos) << message;
    EXPECT_NE(message.find("ci:***@"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_NE(error_of("pg://h/db").find("unknown store scheme 'pg', not postgresql"),
            std::string::npos);
  EXPECT_NE(error_of("postgresql:/h/db").find("begins postgresql:// (two slashes)"),
            std::string::npos);
}

TEST(StoreLocation, ALibpqConnectionStringIsAServerNotAFile) {
  const StoreLocation l = parse_store_location("host=db dbname=bench password=s3cr3tpw");
  EXPECT_EQ(l.backend, Backend::kPostgresql);
  EXPECT_EQ(l.postgresql_conninfo, "password='s3cr3tpw' dbname='bench' host='db'");
  EXPECT_EQ(l.display, "host=db dbname=bench password=***");
  // Not libpq's: a path, even with '=' or ':' in it.
  EXPECT_EQ(parse_store_location("a=b.sqlite").backend, Backend::kSqlite);
  EXPECT_EQ(parse_store_location("C:/h.sqlite").backend, Backend::kSqlite);
  EXPECT_EQ(parse_store_location("runs/h@2.sqlite").backend, Backend::kSqlite);
}

TEST(RedactPasswords, HidesAPasswordAfterASchemeWithOneSlashOrNone) {
  EXPECT_EQ(redact_passwords("postgresql:/ci:pw@db/x"), "postgresql:/ci:***@db/x");
  EXPECT_EQ(redact_passwords("postgres:ci:pw@db/x"), "postgres:ci:***@db/x");
  EXPECT_EQ(redact_passwords("sqlite:h.db"), "sqlite:h.db");
}

}  // namespace
}  // namespace iobench::history
