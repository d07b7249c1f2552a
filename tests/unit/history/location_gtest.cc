// Store names: paths, sqlite:, postgresql:// URLs (checked by libpq's own parser), the default.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "driver/history/location.hpp"

namespace iobench::history {
namespace {

const EnvLookup kNoEnvironment = [](const char*) -> const char* { return nullptr; };

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

TEST(StoreLocation, TheDefaultIsTheEnvironmentsThenResultsHistorySqlite) {
  EXPECT_EQ(choose_store_location(std::nullopt, kNoEnvironment).sqlite_path,
            "results/history.sqlite");
  const EnvLookup env = [](const char* name) -> const char* {
    return std::string_view(name) == "IOBENCH_HISTORY" ? "sqlite:/ci/h.db" : nullptr;
  };
  EXPECT_EQ(choose_store_location(std::nullopt, env).sqlite_path, "/ci/h.db");
  EXPECT_EQ(choose_store_location(std::string("given.db"), env).sqlite_path, "given.db");
}

TEST(StoreLocation, AConfigsRelativePathResolvesAgainstItsFolder) {
  EXPECT_EQ(choose_store_location(std::string("h.db"), kNoEnvironment, "configs").sqlite_path,
            "configs/h.db");
  EXPECT_EQ(choose_store_location(std::string("/abs/h.db"), kNoEnvironment, "configs").sqlite_path,
            "/abs/h.db");
  EXPECT_EQ(
      choose_store_location(std::string("postgresql://h/db"), kNoEnvironment, "configs").backend,
      Backend::kPostgresql);
}

}  // namespace
}  // namespace iobench::history
