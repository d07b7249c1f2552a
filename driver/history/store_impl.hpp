#pragma once
// What store.cpp, store_add.cpp and store_load.cpp share: the SOCI session and the transaction
// every write takes. Only these files see SOCI.
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "driver/history/schema_sql.hpp"
#include "driver/history/series.hpp"
#include "driver/history/store.hpp"
#include "driver/history/store_statements.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::history {

// The samples table's columns, one vector each, with an indicator vector for each column that may
// be NULL: what adding binds (store_add.cpp) and loading reads into (store_load.cpp).
struct SampleColumnVectors {
  std::vector<long long> run_id, series_id, elapsed_us, user_us, system_us, max_rss_kib, minflt,
      majflt, nvcsw, nivcsw, inblock, oublock, bytes_out, output_hash, summary_n;
  std::vector<double> value, summary_low, summary_high;
  std::vector<int> repeat_no, status, exit_code, cpu_pct_tenths, cache_pct_tenths, counted_pct;
  std::vector<std::string> row_host;
  std::array<std::vector<long long>, runfile::kCounterCount> counters;
  std::array<std::vector<soci::indicator>, runfile::kCounterCount> counters_null;
  std::vector<soci::indicator> exit_code_null, bytes_out_null, cache_pct_null, output_hash_null,
      row_host_null, counted_pct_null, value_null, summary_n_null, summary_low_null,
      summary_high_null;

  // Calls fn(column, values, nulls) for every column of the samples table (docs/formats.md,
  // "History store"), nulls being nullptr for a column that is NOT NULL: the one list of the
  // columns that adding and loading both walk.
  template <typename Fn>
  void for_each_column(Fn&& fn) {
    std::vector<soci::indicator>* const not_null = nullptr;
    fn("run_id", run_id, not_null);
    fn("series_id", series_id, not_null);
    fn("repeat_no", repeat_no, not_null);
    fn("status", status, not_null);
    fn("exit_code", exit_code, &exit_code_null);
    fn("elapsed_us", elapsed_us, not_null);
    fn("user_us", user_us, not_null);
    fn("system_us", system_us, not_null);
    fn("cpu_pct_tenths", cpu_pct_tenths, not_null);
    fn("max_rss_kib", max_rss_kib, not_null);
    fn("minflt", minflt, not_null);
    fn("majflt", majflt, not_null);
    fn("nvcsw", nvcsw, not_null);
    fn("nivcsw", nivcsw, not_null);
    fn("inblock", inblock, not_null);
    fn("oublock", oublock, not_null);
    fn("bytes_out", bytes_out, &bytes_out_null);
    fn("cache_pct_tenths", cache_pct_tenths, &cache_pct_null);
    fn("output_hash", output_hash, &output_hash_null);
    fn("row_host", row_host, &row_host_null);
    for (std::size_t c = 0; c < runfile::kCounterCount; ++c) {
      fn(runfile::kCounterColumns[c], counters[c], &counters_null[c]);
    }
    fn("counted_pct_tenths", counted_pct, &counted_pct_null);
    fn("value", value, &value_null);
    fn("summary_n", summary_n, &summary_n_null);
    fn("summary_low", summary_low, &summary_low_null);
    fn("summary_high", summary_high, &summary_high_null);
  }
  // "run_id, series_id, ...": the columns in for_each_column's order.
  std::string column_list();
};

struct Store::Impl {
  StoreLocation location;
  const Dialect* dialect = nullptr;
  soci::session sql;
  int version = 0;
  ConfigMemo config_memo;  // what each config says of its tests, across the adds of one command
  // The series keys of runs measured alike, by SeriesIdentity::context_of: worked out once for
  // all the runs of one command, not once a run.
  std::unordered_map<std::string, SeriesIdentity> identities;
  // Series ids by hash, of adds this store committed: a series is never removed (prune removes
  // samples and runs), so a later add asks the database only for the series it has not seen.
  std::unordered_map<std::string, std::int64_t> committed_series;
  // The samples' INSERT, prepared once a store (insert_samples_sqlite): parsing it for each run
  // cost as much as binding a run's rows. Declared after `sql`, so finalized before it closes.
  std::unique_ptr<sqlite_api::sqlite3_stmt, int (*)(sqlite_api::sqlite3_stmt*)>
      sqlite_samples_insert{nullptr, sqlite_api::sqlite3_finalize};
  std::unique_ptr<AddStatements> add_statements;  // made by the first add; after `sql` too

  // Runs `body` in one write transaction (writers in turn, docs/history.md "Many writers"),
  // committed when it returns, rolled back when it throws.
  template <typename Body>
  auto write(Body&& body) {
    sql << dialect->begin_write;
    try {
      if (!dialect->lock_writers.empty()) {
        int locked = 0;
        sql << dialect->lock_writers, soci::into(locked);
      }
      if constexpr (std::is_void_v<decltype(body())>) {
        body();
        sql << "COMMIT";
      } else {
        auto result = body();
        sql << "COMMIT";
        return result;
      }
    } catch (...) {
      try {
        sql << "ROLLBACK";
      } catch (const std::exception&) {  // the error that brought us here is the one to report
      }
      throw;
    }
  }
};

// Connects impl.sql to impl.location as `mode` asks and sets impl.dialect and impl.version
// (store_open.cpp): refuses, before anything is written, a file or database that is not an
// iobench store, a missing or empty one when reading, a newer schema; makes or migrates the
// schema when writing.
void open_store(Store::Impl& impl, OpenMode mode);

// A run's samples in one statement of the backend's own (store_samples.cpp).
void insert_samples_sqlite(Store::Impl& impl, SampleColumnVectors& columns);
void insert_samples_postgresql(soci::session& sql, SampleColumnVectors& columns);

// A database's message on one line (libpq's span several, with tabs), without trailing space.
std::string one_line(std::string_view text);

// Rethrows the exception in flight as iobench::Error (exit 2) naming the store and what it was
// doing; an iobench::Error passes unchanged.
[[noreturn]] void rethrow_as_store_error(const StoreLocation& location, std::string_view doing);

}  // namespace iobench::history
