#pragma once
// The runs table of the history store (docs/formats.md, "History store"), one entry a column: its
// name, its SQL type, the schema version that added it and the StoredRun field it holds, made from
// the lines of runs_table.hpp, which make the fields too. The table's DDL, the INSERT of `history
// add` and the SELECT of every load are made from it, so a new column is one line there.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "driver/history/model.hpp"

namespace iobench::history {

// Where a column's value lives in a StoredRun, by the field's type: a text, a whole number, or
// one that may be NULL (a flag is stored as 0 or 1).
using RunField =
    std::variant<std::string& (*)(StoredRun&), std::int64_t& (*)(StoredRun&),
                 std::optional<std::string>& (*)(StoredRun&),
                 std::optional<std::int64_t>& (*)(StoredRun&),
                 std::optional<double>& (*)(StoredRun&), std::optional<bool>& (*)(StoredRun&)>;

struct RunColumn {
  std::string_view name;
  std::string_view sql_type;  // as CREATE TABLE writes it; "{id}" is the dialect's key column
  int since_version;          // the schema version whose migration adds it
  RunField field;

  // The key column, which the store assigns: not in the INSERT.
  [[nodiscard]] bool assigned_by_store() const { return sql_type == "{id}"; }
};

// Every column of the runs table, in the table's order.
std::span<const RunColumn> run_columns();

// The migration to schema version `version`'s statements for the runs table: CREATE TABLE for
// version 1, one ALTER TABLE ... ADD COLUMN a column for a later one (none when it adds none).
std::vector<std::string> runs_table_statements(int version);

// "INSERT INTO runs (every column but run_id) VALUES (:c1, ...) RETURNING run_id".
std::string runs_insert_sql();
// "SELECT every column FROM runs ORDER BY run_id".
std::string runs_select_sql();

}  // namespace iobench::history
