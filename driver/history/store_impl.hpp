#pragma once
// What store.cpp, store_add.cpp and store_load.cpp share: the SOCI session and the transaction
// every write takes. Only these files see SOCI.
#include <soci/soci.h>

#include <string>
#include <string_view>

#include "driver/history/schema_sql.hpp"
#include "driver/history/store.hpp"

namespace iobench::history {

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
