#pragma once
// What store.cpp, store_add.cpp and store_load.cpp share: the SOCI session and the transaction
// every write takes. Only these files see SOCI.
#include <soci/soci.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"
#include "driver/runfile/schema.hpp"

namespace iobench::history {

// The samples table's columns, one vector each, with an indicator vector for each column that may
// be NULL: SOCI's bulk binds when adding (store_add.cpp) and bulk intos when loading
// (store_load.cpp).
struct SampleColumnVectors {
  std::vector<long long> run_id, series_id, elapsed_us, user_us, system_us, max_rss_kib, minflt,
      majflt, nvcsw, nivcsw, inblock, oublock, bytes_out, output_hash;
  std::vector<int> repeat_no, status, exit_code, cpu_pct_tenths, cache_pct_tenths, counted_pct;
  std::vector<std::string> row_host;
  std::array<std::vector<long long>, kCounterCount> counters;
  std::array<std::vector<soci::indicator>, kCounterCount> counters_null;
  std::vector<soci::indicator> exit_code_null, bytes_out_null, cache_pct_null, output_hash_null,
      row_host_null, counted_pct_null;
};

struct Store::Impl {
  StoreLocation location;
  const Dialect* dialect = nullptr;
  soci::session sql;
  int version = 0;

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

// A database's message on one line (libpq's span several, with tabs), without trailing space.
std::string one_line(std::string_view text);

// Rethrows the exception in flight as iobench::Error (exit 2) naming the store and what it was
// doing; an iobench::Error passes unchanged.
[[noreturn]] void rethrow_as_store_error(const StoreLocation& location, std::string_view doing);

}  // namespace iobench::history
