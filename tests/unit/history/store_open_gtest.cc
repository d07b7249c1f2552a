// Opening the SQLite store under ordinary mishaps (docs/history.md, "The store"): first opens
// racing into a store that does not exist yet, a read-only connection that no write gets
// through, files that are not an iobench store left byte for byte as they were, a store from
// before the mark stamped only when written, and prune giving the space back.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <chrono>
#include <fstream>
#include <latch>
#include <sstream>
#include <thread>

#include "common/error.hpp"
#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"
#include "fixture.hpp"
#include "tests/unit/history/fixture.hpp"
#include "tests/unit/temp_dir.hpp"

namespace iobench::history {
namespace {

using test::sample_meta;
using test::sample_row;
using test::write_run;

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class StoreOpenTest : public ::testing::Test {
 protected:
  StoreLocation at(const std::string& name) const {
    return parse_store_location((dir_ / name).string());
  }
  RunRecord record(const std::string& name, double elapsed_s = 0.1) {
    return load_run_record(
        write_run(dir_.path(), name, sample_meta(), {sample_row("read-raw", elapsed_s)}, {}), {},
        test::kNoEnvironment);
  }
  // The message of the Error that opening `location` as `mode` throws ("" if none).
  static std::string refusal(const StoreLocation& location, OpenMode mode) {
    try {
      Store store(location, mode);
    } catch (const Error& e) {
      EXPECT_EQ(e.exit_code(), 2);
      return e.what();
    }
    return "";
  }
  iobench::test::TempDir dir_{"history-open"};
};

// Threads of one process meet at the latch within microseconds, closer than processes can: the
// moment when one connection switches a new file to WAL while another holds a lock on it, which
// sqlite3 answers with SQLITE_BUSY at once, without waiting (it was "database is locked").
TEST_F(StoreOpenTest, TwentyFirstAddsAtOnceIntoANewStoreAllLand) {
  constexpr int kAdders = 20;
  std::vector<RunRecord> runs;
  runs.reserve(kAdders);
  for (int i = 0; i < kAdders; ++i) runs.push_back(record(fmt::format("r{}", i), 0.1 + i * 0.01));
  for (int round = 0; round < 5; ++round) {
    const StoreLocation location = at(fmt::format("round{}/h.sqlite", round));
    std::latch start(kAdders);
    std::vector<std::string> errors(kAdders);
    std::vector<std::thread> adders;
    adders.reserve(kAdders);
    for (int i = 0; i < kAdders; ++i) {
      adders.emplace_back([&, i] {
        start.arrive_and_wait();
        try {
          Store store(location, OpenMode::kCreate);
          store.add(runs[static_cast<std::size_t>(i)]);
        } catch (const std::exception& e) {
          errors[static_cast<std::size_t>(i)] = e.what();
        }
      });
    }
    for (auto& adder : adders) adder.join();
    for (int i = 0; i < kAdders; ++i) {
      EXPECT_EQ(errors[static_cast<std::size_t>(i)], "") << "round " << round << ", add " << i;
    }
    EXPECT_EQ(Store(location, OpenMode::kReadOnly).load().runs.size(), std::size_t{kAdders})
        << "round " << round;
  }
}

// The moment of the race held open: another connection (a first add setting the store up) has
// the new file's write lock. Switching to WAL then fails at once, without the busy timeout
// (sqlite3 does not wait while this connection holds its read lock): it is tried again until
// the other lets go.
TEST_F(StoreOpenTest, SettingUpANewStoreWaitsForAnotherThatHoldsItsWriteLock) {
  const StoreLocation location = at("h.sqlite");
  soci::session holder(*soci::factory_sqlite3(), "db=" + location.sqlite_path.string());
  holder << "BEGIN IMMEDIATE";
  std::thread release([&holder] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holder << "ROLLBACK";
  });
  std::string error;
  try {
    Store store(location, OpenMode::kCreate);
    store.add(record("a"));
  } catch (const std::exception& e) {
    error = e.what();
  }
  release.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(Store(location, OpenMode::kReadOnly).load().runs.size(), 1u);
}

TEST_F(StoreOpenTest, ANewStoreIsMarkedWithTheApplicationIdAndTheSchemaVersion) {
  { Store store(at("h.sqlite"), OpenMode::kCreate); }
  soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "h.sqlite").string());
  int application_id = 0;
  int user_version = 0;
  sql << "PRAGMA application_id", soci::into(application_id);
  sql << "PRAGMA user_version", soci::into(user_version);
  EXPECT_EQ(application_id, kSqliteApplicationId);
  EXPECT_EQ(user_version, kSchemaVersion);
}

TEST_F(StoreOpenTest, AReadOnlyStoreIsReadAndNoWriteGetsThrough) {
  {
    Store store(at("h.sqlite"), OpenMode::kCreate);
    store.add(record("a"));
  }
  const std::string before = bytes_of(dir_ / "h.sqlite");
  Store reader(at("h.sqlite"), OpenMode::kReadOnly);
  EXPECT_EQ(reader.load().runs.size(), 1u);
  // The connection itself is read-only: sqlite3 refuses the write, the file stays as it was.
  EXPECT_THROW(reader.acknowledge({"aaaa1111@bbbb2222", "s", "r", "why", "me", "now"}), Error);
  EXPECT_THROW(reader.prune(0), Error);
  EXPECT_EQ(bytes_of(dir_ / "h.sqlite"), before);
}

TEST_F(StoreOpenTest, ReadingNeverMakesAStore) {
  EXPECT_NE(refusal(at("none.sqlite"), OpenMode::kReadOnly).find("no history store there"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "none.sqlite"));
  std::ofstream(dir_ / "empty.sqlite").close();
  EXPECT_NE(refusal(at("empty.sqlite"), OpenMode::kReadOnly).find("an empty file"),
            std::string::npos);
  EXPECT_NE(refusal(at("empty.sqlite"), OpenMode::kExisting).find("an empty file"),
            std::string::npos);
  EXPECT_EQ(std::filesystem::file_size(dir_ / "empty.sqlite"), 0u);
  // An SQLite database with no tables yet: nothing to read, and reading does not make it one.
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "blank.sqlite").string());
    sql << "CREATE TABLE passing (x INTEGER)";  // writes the header...
    sql << "DROP TABLE passing";                // ...and leaves no table
  }
  const std::string blank = bytes_of(dir_ / "blank.sqlite");
  EXPECT_NE(refusal(at("blank.sqlite"), OpenMode::kReadOnly).find("no history store there"),
            std::string::npos);
  EXPECT_EQ(bytes_of(dir_ / "blank.sqlite"), blank);
}

TEST_F(StoreOpenTest, WhatIsNotAnIobenchStoreIsRefusedAndLeftAsItWas) {
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "other.db").string());
    sql << "CREATE TABLE notes (t TEXT)";
    sql << "INSERT INTO notes VALUES ('mine')";
  }
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "app.db").string());
    sql << "PRAGMA application_id = 42";
  }
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "half.db").string());
    sql << "CREATE TABLE runs (x)";  // one of iobench's tables, not the set
  }
  std::ofstream(dir_ / "text.sqlite") << "just some text, long enough to be read as a header\n";
  for (const char* name : {"other.db", "app.db", "half.db", "text.sqlite"}) {
    const std::string before = bytes_of(dir_ / name);
    for (const OpenMode mode : {OpenMode::kCreate, OpenMode::kExisting, OpenMode::kReadOnly}) {
      const std::string message = refusal(at(name), mode);
      EXPECT_NE(message.find("not an iobench history store"), std::string::npos)
          << name << ": " << message;
      EXPECT_NE(message.find(name), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
    EXPECT_EQ(bytes_of(dir_ / name), before) << name;
    EXPECT_FALSE(std::filesystem::exists(dir_ / (std::string(name) + "-wal"))) << name;
  }
}

TEST_F(StoreOpenTest, AStoreFromBeforeTheMarkIsReadAsItIsAndStampedWhenWritten) {
  {
    Store store(at("old.sqlite"), OpenMode::kCreate);
    store.add(record("a"));
  }
  const auto mark = [this] {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "old.sqlite").string());
    int application_id = -1;
    sql << "PRAGMA application_id", soci::into(application_id);
    return application_id;
  };
  {
    soci::session sql(*soci::factory_sqlite3(), "db=" + (dir_ / "old.sqlite").string());
    sql << "PRAGMA application_id = 0";
    sql << "PRAGMA user_version = 0";
  }
  EXPECT_EQ(Store(at("old.sqlite"), OpenMode::kReadOnly).load().runs.size(), 1u);
  EXPECT_EQ(mark(), 0);
  { Store store(at("old.sqlite"), OpenMode::kExisting); }
  EXPECT_EQ(mark(), kSqliteApplicationId);
}

TEST_F(StoreOpenTest, PruneGivesTheSpaceBack) {
  {
    Store store(at("h.sqlite"), OpenMode::kCreate);
    for (int i = 0; i < 40; ++i) {
      nlohmann::json meta = sample_meta();
      meta["context"]["date"] = fmt::format("2026-01-01T00:{:02}:00Z", i);
      std::vector<runfile::RunRow> rows;
      for (int r = 1; r <= 20; ++r) rows.push_back(sample_row("read-raw", 0.1 + i * 0.001, r));
      store.add(load_run_record(write_run(dir_.path(), fmt::format("r{}", i), meta, rows, {}), {},
                                test::kNoEnvironment));
    }
  }
  const auto size_before = std::filesystem::file_size(dir_ / "h.sqlite");
  {
    Store store(at("h.sqlite"), OpenMode::kExisting);
    EXPECT_EQ(store.prune(1).runs_removed, 39u);
  }
  const auto size_after = std::filesystem::file_size(dir_ / "h.sqlite");
  EXPECT_LT(size_after * 3, size_before * 2) << size_before << " -> " << size_after << " bytes";
}

}  // namespace
}  // namespace iobench::history
