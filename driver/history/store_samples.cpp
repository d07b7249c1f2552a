// A run's samples into the store in one statement of each backend's own (docs/history.md,
// "Performance"): SOCI's bulk insert binds each row through its generic layer on SQLite and sends
// one row per round trip to PostgreSQL, which was most of an add's time there.
#include <fmt/format.h>
#include <soci/sqlite3/soci-sqlite3.h>

#include <memory>
#include <stdexcept>

#include "driver/history/store_impl.hpp"

namespace iobench::history {
namespace {

namespace sq = sqlite_api;

void bind(sq::sqlite3_stmt* statement, int index, long long value) {
  sq::sqlite3_bind_int64(statement, index, value);
}
void bind(sq::sqlite3_stmt* statement, int index, int value) {
  sq::sqlite3_bind_int(statement, index, value);
}
void bind(sq::sqlite3_stmt* statement, int index, double value) {
  sq::sqlite3_bind_double(statement, index, value);
}
void bind(sq::sqlite3_stmt* statement, int index, const std::string& value) {
  sq::sqlite3_bind_text(statement, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_STATIC);
}

// PostgreSQL's text form of an array of `values` (NULL where `nulls` says so).
template <typename T>
std::string array_literal(const std::vector<T>& values, const std::vector<soci::indicator>* nulls) {
  std::string text = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ',';
    if (nulls != nullptr && (*nulls)[i] != soci::i_ok) {
      text += "NULL";
    } else if constexpr (std::is_same_v<T, std::string>) {
      text += '"';
      for (const char c : values[i]) {
        if (c == '"' || c == '\\') text += '\\';
        text += c;
      }
      text += '"';
    } else {
      text += fmt::format("{}", values[i]);  // a double's shortest exact text
    }
  }
  return text + "}";
}

template <typename T>
constexpr std::string_view postgresql_type() {
  if constexpr (std::is_same_v<T, std::string>) {
    return "text";
  } else if constexpr (std::is_same_v<T, int>) {
    return "integer";
  } else if constexpr (std::is_same_v<T, double>) {
    return "double precision";
  } else {
    return "bigint";
  }
}

}  // namespace

std::string SampleColumnVectors::column_list() {
  std::string list;
  for_each_column([&list](std::string_view column, const auto&, const auto*) {
    list += fmt::format("{}{}", list.empty() ? "" : ", ", column);
  });
  return list;
}

void insert_samples_sqlite(Store::Impl& impl, SampleColumnVectors& columns) {
  sq::sqlite3* db = static_cast<soci::sqlite3_session_backend*>(impl.sql.get_backend())->conn_;
  if (!impl.sqlite_samples_insert) {
    std::string marks;
    columns.for_each_column([&marks](std::string_view, const auto&, const auto*) {
      marks += marks.empty() ? "?" : ", ?";
    });
    const std::string text =
        fmt::format("INSERT INTO samples ({}) VALUES ({})", columns.column_list(), marks);
    sq::sqlite3_stmt* made = nullptr;
    if (sq::sqlite3_prepare_v2(db, text.c_str(), -1, &made, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sq::sqlite3_errmsg(db));
    }
    impl.sqlite_samples_insert.reset(made);
  }
  sq::sqlite3_stmt* const statement = impl.sqlite_samples_insert.get();
  for (std::size_t row = 0; row < columns.run_id.size(); ++row) {
    int index = 0;
    columns.for_each_column([&](std::string_view, const auto& values, const auto* nulls) {
      ++index;
      if (nulls != nullptr && (*nulls)[row] != soci::i_ok) {
        sq::sqlite3_bind_null(statement, index);
      } else {
        bind(statement, index, values[row]);
      }
    });
    const int stepped = sq::sqlite3_step(statement);
    sq::sqlite3_reset(statement);
    if (stepped != SQLITE_DONE) throw std::runtime_error(sq::sqlite3_errmsg(db));
  }
}

void insert_samples_postgresql(soci::session& sql, SampleColumnVectors& columns) {
  std::vector<std::string> arrays;
  std::string casts;
  columns.for_each_column([&](std::string_view, const auto& values, const auto* nulls) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    casts += fmt::format("{}CAST(:a{} AS {}[])", casts.empty() ? "" : ", ", arrays.size(),
                         postgresql_type<T>());
    arrays.push_back(array_literal(values, nulls));
  });
  soci::statement statement(sql);
  for (const std::string& array : arrays) statement.exchange(soci::use(array));
  statement.alloc();
  statement.prepare(fmt::format("INSERT INTO samples ({}) SELECT * FROM unnest({})",
                                columns.column_list(), casts));
  statement.define_and_bind();
  statement.execute(true);
}

}  // namespace iobench::history
